import { existsSync } from 'node:fs';
import path from 'node:path';
import { type DatabaseHandle, DatabaseInUseError, openDatabase } from '../db';
import { type Config, ConfigError, loadConfig } from '../kernel/config';
import { createOwnerOnlyFiles } from '../kernel/data-dir';
import { type AdminContext, CommandError } from './framework';

export type AdminRuntime = {
  ctx: AdminContext;
  database: DatabaseHandle;
  close(): Promise<void>;
};

/**
 * A running server holds the embedded database. The command line then asks that server to run the command
 * (socket.ts); this is its answer when the server cannot be asked.
 */
export class DatabaseHeldError extends CommandError {
  constructor(
    readonly dataDir: string,
    pid: number,
  ) {
    super(
      `The database in ${displayDir(dataDir)} is in use by a running server (pid ${pid}); stop it or set DATABASE_URL to use PostgreSQL.`,
    );
    this.name = 'DatabaseHeldError';
  }
}

/** `./data` rather than an absolute path when the folder is under the current directory. */
function displayDir(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? `./${relative}` : dir;
}

/** Why PostgreSQL could not be reached, in one line and without the password (Drizzle wraps the cause). */
function connectionProblem(error: unknown, databaseUrl: string): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z]+|28P01|28000|3D000|57P03)$/.test(code)) {
      const url = new URL(databaseUrl);
      return `Cannot use PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}: ${current.message}`;
    }
  }
  return undefined;
}

/**
 * How the entry point (cli.ts) builds the context and makes the start's writes, the same as main.ts: the
 * composition root's `createAppContext` and `startUp` (migrations, sealing, signing, the default catalogue).
 */
export type StartRuntime = (config: Config, database: DatabaseHandle) => Promise<AdminContext>;

/**
 * Opens what the server opens, the same way main.ts does: configuration from the environment, the database
 * (PGlite in DATA_DIR or DATABASE_URL), then `start`. Everything the commands change goes through the server's own
 * modules on this context.
 */
export async function openRuntime(start: StartRuntime): Promise<AdminRuntime> {
  createOwnerOnlyFiles();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError)
      throw new CommandError(`Invalid configuration: ${error.problems.join('; ')}`);
    throw error;
  }

  // A command run from the wrong folder would otherwise make a new, empty shop there and act on it (issue 63).
  const pgliteDir = path.join(config.dataDir, 'pglite');
  if (!config.databaseUrl && !process.env.DATA_DIR && !existsSync(pgliteDir))
    throw new CommandError(
      `No database in ${displayDir(config.dataDir)} (looked in ${path.resolve(config.dataDir)}): run the command from the folder the server runs in, or set DATA_DIR to the server's data folder (or DATABASE_URL). Nothing was created.`,
    );

  let database: DatabaseHandle | undefined;
  let ctx: AdminContext;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir,
    });
    ctx = await start(config, database);
  } catch (error) {
    await database?.close().catch(() => {});
    if (error instanceof DatabaseInUseError) {
      throw new DatabaseHeldError(config.dataDir, error.pid);
    }
    const problem = config.databaseUrl ? connectionProblem(error, config.databaseUrl) : undefined;
    if (problem) throw new CommandError(problem);
    throw error;
  }

  return { ctx, database, close: () => database.close() };
}
