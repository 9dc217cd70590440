import { existsSync } from 'node:fs';
import path from 'node:path';
import { type DatabaseHandle, DatabaseInUseError, openDatabase } from '../db';
import { MoveRefused, maskedUrl, moveToPostgres, openMoveTarget } from '../db/move';
import { recordAudit } from '../operator/audit';
import { argument, CommandError, configuredOrRefused, defineCommand, UsageError } from './framework';

const NAME = 'move-to-postgres';

/** The target as the operator typed it, checked to be a PostgreSQL URL; a wrong one is a usage error. */
function targetUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`"${text}" is not a URL; give postgres://USER:PASSWORD@HOST:PORT/DATABASE.`, NAME);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new UsageError('The target must be a postgres:// URL.', NAME);
  return text;
}

/** Opens the embedded database, which only this process may hold while it is read. */
async function openSource(dataDir: string): Promise<DatabaseHandle> {
  const pgliteDir = path.join(dataDir, 'pglite');
  if (!existsSync(pgliteDir))
    throw new CommandError(`There is no embedded database in ${pgliteDir} to move.`);
  try {
    return await openDatabase({ pgliteDir });
  } catch (error) {
    if (error instanceof DatabaseInUseError)
      throw new CommandError(
        `The embedded database in ${pgliteDir} is in use by a running server (pid ${error.pid}): stop the server first, then run ${NAME} again.`,
      );
    throw error;
  }
}

const move = defineCommand({
  path: [NAME],
  summary: 'Copy the embedded database into an empty PostgreSQL database (stop the server first)',
  args: [{ name: 'url', description: 'The empty target, postgres://USER:PASSWORD@HOST:PORT/DATABASE' }],
  example: `${NAME} postgres://shop:secret@db.internal:5432/shop`,
  details:
    'Runs the migrations on the target, then copies every table in one transaction and compares each table’s ' +
    'row count and checksum before it commits. Refuses a target that holds any row; the embedded database is ' +
    'only read. Afterwards, set the printed DATABASE_URL and start the server.',
  notInServer: `${NAME} cannot run inside the running server: stop the server first, then run it again.`,
  async run(env, input) {
    const url = targetUrl(argument(input, 0));
    const { dataDir, databaseUrl } = configuredOrRefused();
    if (databaseUrl)
      throw new UsageError(
        `DATABASE_URL is set: the shop already runs on PostgreSQL. ${NAME} copies the embedded database in DATA_DIR; unset DATABASE_URL to run it.`,
      );
    const source = await openSource(dataDir);
    try {
      const target = await openMoveTarget(url);
      try {
        const tables = await moveToPostgres(source, target, {
          // In the target, which is the shop's database from now on, with the copy: no personal data, only figures.
          beforeCommit: (to, copied) =>
            recordAudit(to, env.actor, {
              action: 'database.move_to_postgres',
              after: { tables: copied.length, rows: copied.reduce((sum, table) => sum + table.rows, 0) },
            }),
        });
        return {
          data: { target: maskedUrl(url), tables, databaseUrl: url },
          text: [
            ...tables.map((table) => `${table.table}: ${table.rows} rows`),
            `Copied ${tables.length} tables into ${maskedUrl(url)}; row counts and checksums match.`,
            'Add this line to the server’s environment, then start it:',
            `DATABASE_URL=${url}`,
          ].join('\n'),
        };
      } finally {
        await target.close();
      }
    } catch (error) {
      if (error instanceof MoveRefused) throw new CommandError(error.message);
      throw error;
    } finally {
      await source.close();
    }
  },
});

export const moveCommands = [move];
