import { createHash, randomBytes } from 'node:crypto';
import {
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { chmod, copyFile, cp, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { backupDirOf, writeBackup } from '../../src/server/db/backup';
import { type Database, type DatabaseHandle, openDatabase } from '../../src/server/db/index';

const root = path.resolve(import.meta.dirname, '../..');
const templates = path.join(root, 'node_modules/.cache/test-databases');

/**
 * What a migrated empty database depends on: the migrations and the PGlite build. A template made from other ones
 * is never used.
 */
function schemaKey(): string {
  const hash = createHash('sha256');
  const migrations = path.join(root, 'drizzle');
  for (const name of readdirSync(migrations, { recursive: true, encoding: 'utf8' }).sort()) {
    const file = path.join(migrations, name);
    if (name.endsWith('.sql') || name.endsWith('.json')) hash.update(name).update(readFileSync(file));
  }
  hash.update(readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 16);
}

let archive: Promise<{ blob: () => Promise<Blob>; gzipped: string }> | undefined;

/**
 * A new PGlite database runs initdb (2 to 4 s here) and then every migration; a test needs only what that makes.
 * So it is made once, as a snapshot kept under node_modules/.cache, and each test database is unpacked from it
 * (half a second). Made under a name of its own and renamed into place, so test processes starting together
 * never read a half-written one. The snapshot is kept gzipped too, as a backup of that database is written.
 */
function migratedTemplate(): Promise<{ blob: () => Promise<Blob>; gzipped: string }> {
  archive ??= (async () => {
    const file = path.join(templates, `pglite-${schemaKey()}.tar`);
    const gzipped = `${file}.gz`;
    if (!existsSync(file) || !existsSync(gzipped)) {
      mkdirSync(templates, { recursive: true });
      const handle = await openDatabase({ pgliteDir: 'memory://' });
      await handle.migrate();
      const snapshot = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await handle.snapshot?.(snapshot);
      await handle.close();
      // Kept unpacked: gunzipping it again for every test database would cost a third of what the copy saves.
      writeFileSync(`${snapshot}.tar`, gunzipSync(readFileSync(snapshot)));
      renameSync(snapshot, gzipped);
      renameSync(`${snapshot}.tar`, file);
      for (const name of readdirSync(templates))
        if (/^pglite-\w+\.(tar(\.gz)?|dir)$/.test(name) && !name.startsWith(path.basename(file, '.tar')))
          rmSync(path.join(templates, name), { force: true, recursive: true });
    }
    // Read only by what unpacks it (in-memory test databases, the folder below): a copy of the folder needs none.
    let blob: Promise<Blob> | undefined;
    return { blob: () => (blob ??= readFile(file).then((bytes) => new Blob([bytes]))), gzipped };
  })();
  return archive;
}

let folder: Promise<string> | undefined;

/**
 * The migrated template as a PGlite folder, unpacked once from the archive: a test's DATA_DIR/pglite is a copy of
 * it, which costs a file copy where unpacking the archive cost a PGlite start in the test's process (a second of CPU
 * each, for every browser journey's shop and every test file that starts a server or the command line). Made under
 * a name of its own and renamed into place, as the archive is.
 */
function migratedFolder(): Promise<string> {
  folder ??= (async () => {
    const { blob } = await migratedTemplate();
    const made = path.join(templates, `pglite-${schemaKey()}.dir`);
    if (existsSync(made)) return made;
    const making = `${made}.${process.pid}.${randomBytes(4).toString('hex')}`;
    const handle = await openDatabase({ pgliteDir: making, loadDataDir: await blob() });
    await handle.close();
    try {
      renameSync(making, made);
    } catch (error) {
      // Another process put its copy in place first: use that one.
      rmSync(making, { recursive: true, force: true });
      if (!existsSync(made)) throw error;
    }
    return made;
  })();
  return folder;
}

/**
 * DATA_DIR as a server's first start leaves it, when `dataDir` holds no database yet: DATA_DIR/pglite migrated and
 * owner-only, unpacked from the migrated archive, and that database's first daily snapshot in DATA_DIR/backups (the
 * archive itself, which is exactly that), so the server does not spend its first seconds writing one. For tests that
 * start a server and do not look at how it creates a database or its backups.
 */
export async function seedMigratedDataDir(dataDir: string): Promise<void> {
  const pgliteDir = path.join(dataDir, 'pglite');
  if (existsSync(pgliteDir)) return;
  const { gzipped } = await migratedTemplate();
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await cp(await migratedFolder(), pgliteDir, { recursive: true, mode: constants.COPYFILE_FICLONE });
  await chmod(pgliteDir, 0o700);
  await mkdir(backupDirOf(dataDir), { recursive: true, mode: 0o700 });
  await writeBackup(async (file) => {
    await copyFile(gzipped, file);
    await chmod(file, 0o600);
  }, dataDir);
}

/** Which database the server tests run on: the vitest project sets TEST_DB (pglite or postgres). */
export const testDriver = (): 'pglite' | 'postgres' =>
  process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * The database a test file starts its own processes (the command line, a server) on: a new PostgreSQL database on
 * the PostgreSQL pass (`databaseUrl`, and `drop` to remove it), else `DATA_DIR/pglite` seeded from the migrated
 * archive (`databaseUrl` empty, as those processes then open DATA_DIR's embedded database).
 */
export async function databaseForProcesses(
  dataDir: string,
): Promise<{ databaseUrl: string; drop?: () => Promise<void> }> {
  if (testDriver() === 'postgres') {
    const database = await createTestDatabase();
    return { databaseUrl: database.url ?? '', drop: () => database.close() };
  }
  await seedMigratedDataDir(dataDir);
  return { databaseUrl: '' };
}

/**
 * The database for `npm run admin` processes a test starts in `dataDir` (as `databaseForProcesses`), and the
 * environment they run with on it: a test process's settings, with the test file's own `settings` added.
 */
export async function commandLineProcessEnv(
  dataDir: string,
  settings: Record<string, string>,
): Promise<{ env: Record<string, string>; drop?: () => Promise<void> }> {
  const { databaseUrl, drop } = await databaseForProcesses(dataDir);
  const env = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: 'http://127.0.0.1:3999',
    LOG_LEVEL: 'silent',
    ...settings,
  };
  return { env, drop };
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite unpacked from the migrated archive, or a new
 * database on the throwaway PostgreSQL server named by TEST_DATABASE_URL, a copy of the migrated template there
 * (dropped again on close). Migrated once more either way: nothing to do when the copy is current, and what a
 * test of migrations relies on.
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  if (testDriver() === 'pglite') {
    const handle = await openDatabase({
      pgliteDir: 'memory://',
      loadDataDir: await (await migratedTemplate()).blob(),
    });
    await handle.migrate();
    return handle;
  }
  const database = await newPostgresDatabase(await postgresTemplate());
  const handle = await openDatabase({ databaseUrl: database.url, pgliteDir: '' });
  await handle.migrate();
  return {
    ...handle,
    url: database.url,
    async close() {
      await handle.close();
      await database.drop();
    },
  };
}

/** The PostgreSQL server tests may create databases on (TEST_DATABASE_URL), and one of its databases' address. */
function postgresServer(): { adminUrl: string; urlOf(name: string): string } {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl)
    throw new Error('a PostgreSQL test needs TEST_DATABASE_URL (a server where we may create databases)');
  return {
    adminUrl,
    urlOf(name) {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
  };
}

/**
 * Runs `statement` on the server's admin database and gives its rows; again while it is refused for a connection
 * still closing, unless `retryWhileInUse` is false.
 */
async function onServer<R extends object = object>(
  statement: string,
  { params = [], retryWhileInUse = true }: { params?: unknown[]; retryWhileInUse?: boolean } = {},
): Promise<R[]> {
  const client = new pg.Client({ connectionString: postgresServer().adminUrl });
  await client.connect();
  try {
    // A pool's connections may still be closing on the server. Forcing would kill them with a FATAL that reaches
    // the closing client as an unhandled error, so wait for them to go first.
    for (let attempt = 0; ; attempt++) {
      try {
        return (await client.query<R>(statement, params)).rows;
      } catch (error) {
        const inUse = (error as { code?: string }).code === '55006';
        if (!retryWhileInUse || !inUse || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await client.end();
  }
}

let postgresTemplateMade: Promise<string> | undefined;

/**
 * The migrated database on the PostgreSQL server that each test database is a copy of (`CREATE DATABASE … TEMPLATE`),
 * as the PGlite ones are unpacked from one archive: a copy costs a fraction of running every migration on an empty
 * database, which the PostgreSQL pass did about a hundred times. One per schema (`schemaKey`), made once by whichever
 * test process needs it first: migrated under a name of its own and renamed into place, so no process copies a
 * half-migrated one; a process that loses the race drops its own.
 */
function postgresTemplate(): Promise<string> {
  postgresTemplateMade ??= (async () => {
    const name = `test_template_${schemaKey()}`;
    const { urlOf } = postgresServer();
    const found = await onServer('select 1 from pg_database where datname = $1', { params: [name] });
    if (found.length > 0) return name;
    const making = `${name}_${randomBytes(4).toString('hex')}`;
    await onServer(`create database ${making}`);
    const handle = await openDatabase({ databaseUrl: urlOf(making), pgliteDir: '' });
    try {
      await handle.migrate();
    } finally {
      await handle.close();
    }
    try {
      await onServer(`alter database ${making} rename to ${name}`);
    } catch (error) {
      if ((error as { code?: string }).code !== '42P04') throw error;
      await onServer(`drop database ${making}`);
    }
    // Templates of earlier schemas, unless a run on that schema is copying one right now.
    const stale = await onServer<{ datname: string }>(
      "select datname from pg_database where datname like 'test\\_template\\_%' and datname <> $1 and datname not like $2",
      { params: [name, `${name}\\_%`] },
    );
    for (const { datname } of stale)
      await onServer(`drop database ${datname}`, { retryWhileInUse: false }).catch(() => {});
    return name;
  })();
  return postgresTemplateMade;
}

/**
 * A new, empty database (not migrated) on the throwaway PostgreSQL server named by TEST_DATABASE_URL, and its drop,
 * which waits for the database's last connections to close.
 */
export const emptyPostgresDatabase = () => newPostgresDatabase();

/** A new database on the tests' PostgreSQL server, a copy of `template` when given, and its drop. */
async function newPostgresDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { urlOf } = postgresServer();
  const name = `test_${randomBytes(6).toString('hex')}`;
  await onServer(template ? `create database ${name} template ${template}` : `create database ${name}`);
  return {
    url: urlOf(name),
    drop: async () => {
      await onServer(`drop database if exists ${name}`);
    },
  };
}

/**
 * Which text, varchar, JSON and array columns of any table hold `needle` (any letter case), as "table.column": for
 * tests that show a person's data is gone everywhere but where the law keeps it.
 */
export async function columnsHolding(db: Database, needle: string): Promise<string[]> {
  const columns = await db.execute(sql`
    select table_name as "table", column_name as "column" from information_schema.columns
    where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY')
    order by table_name, column_name`);
  const found: string[] = [];
  for (const { table, column } of (columns as unknown as { rows: Array<{ table: string; column: string }> })
    .rows) {
    const result = await db.execute(
      sql`select count(*)::int as n from ${sql.identifier(table)}
          where position(lower(${needle}) in lower(${sql.identifier(column)}::text)) > 0`,
    );
    const [row] = (result as unknown as { rows: Array<{ n: number }> }).rows;
    if ((row?.n ?? 0) > 0) found.push(`${table}.${column}`);
  }
  return found;
}
