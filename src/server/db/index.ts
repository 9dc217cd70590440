import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { repairDataDirModes } from '../kernel/data-dir';
import { tagDriverErrors } from './driver-errors';
import { lockDataDir } from './lock';
import { type ChannelFollower, type ChannelHandlers, followPglite, followPostgres } from './notifications';
import { onlineSnapshot } from './online-snapshot';

export { DatabaseInUseError } from './lock';

/**
 * One type for both drivers, so every module works on PGlite and PostgreSQL alike. The tables live by owner in
 * db/schema/ and are imported where they are used; the database object needs none of them.
 */
export type Database = PgDatabase<PgQueryResultHKT>;
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type DbOrTx = Database | Tx;

export type DatabaseHandle = {
  db: Database;
  driver: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * Embedded PGlite only: writes its data directory to `file` as a gzipped tar. On disk it is an online backup
   * (db/online-snapshot.ts) that lets queries go on; in memory (tests), PGlite's own dump after a checkpoint.
   * Either way the restore holds everything committed before it ended. PostgreSQL is backed up with pg_dump.
   */
  snapshot?: (file: string) => Promise<void>;
  /** PostgreSQL only: the pool's connections right now, for the metrics scrape. PGlite has no pool. */
  poolStats?: () => PoolStats;
  /** Follows NOTIFY on a channel for as long as the instance runs (db/notifications.ts). */
  follow(
    channel: string,
    handlers: ChannelHandlers,
    onProblem?: (error: Error) => void,
  ): Promise<ChannelFollower>;
};

export type PoolStats = { total: number; idle: number; waiting: number };

declare module '../kernel/context' {
  interface AppContext {
    db: Database;
    /** The PostgreSQL pool's connections, read when Prometheus scrapes; undefined on PGlite, which has no pool. */
    poolStats: (() => PoolStats) | undefined;
  }
}

const migrationsFolder = path.resolve(import.meta.dirname, '../../../drizzle');

/** The advisory lock that instances starting together take in turn to migrate (catalogue/seed.ts holds 7130001). */
const MIGRATION_LOCK = 7130002;

/**
 * Drizzle's migrator checks what is applied and applies the rest without a lock: two instances starting at once
 * (both after a restart of the database host, or the first two of a rolling deploy) both apply the same
 * migrations, and one of them fails on a duplicate. Under a session advisory lock, held on the one connection that
 * migrates, they take turns: the first applies what is new, the next finds nothing to do. The lock goes with the
 * connection if the process dies, and a failed migration closes the connection, ending its session and the lock.
 */
async function migrateUnderLock(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client), { migrationsFolder });
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    client.release();
  } catch (error) {
    client.release(true);
    throw error;
  }
}

/**
 * Opens PostgreSQL when a URL is given, otherwise embedded PGlite: files under `pgliteDir`,
 * or in memory when `pgliteDir` is "memory://" (tests).
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  pgliteDir: string;
  /**
   * PGlite only: a new database is unpacked from this snapshot (DatabaseHandle.snapshot's archive) instead of being
   * created empty: the tests' copies of a migrated database (an operator's restore is restoreBackup's, db/backup.ts).
   */
  loadDataDir?: Blob;
  /** Told about connections the server dropped while idle (a restart, a failover); the pool replaces them. */
  onConnectionError?: (error: Error) => void;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // A connect that hangs (database host gone) fails after a few seconds instead of holding the request.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5000,
    });
    // Without a listener, an idle connection closed by the server is an unhandled 'error' event that ends the
    // process; the pool has already discarded that connection, and the next query opens a new one.
    pool.on('error', (error) => options.onConnectionError?.(error));
    // Errors the pool raises are marked as the database's, so the health observer can tell them from any other.
    const db = drizzlePg(tagDriverErrors(pool)) as unknown as Database;
    return {
      db,
      driver: 'postgres',
      migrate: () => migrateUnderLock(pool),
      follow: async (channel, handlers, onProblem) =>
        followPostgres(options.databaseUrl as string, channel, handlers, onProblem),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => pool.end(),
    };
  }
  // PGlite cannot share its files with another process; the lock turns that into a clear refusal.
  const onDisk = !options.pgliteDir.includes('://');
  const release = onDisk ? await lockDataDir(options.pgliteDir) : async () => {};
  let client: PGlite;
  try {
    client = await PGlite.create({ dataDir: options.pgliteDir, loadDataDir: options.loadDataDir });
    // A new database's first files are unpacked with explicit 0666 modes that ignore the umask: owner-only again.
    if (onDisk) repairDataDirModes(options.pgliteDir);
  } catch (error) {
    await release();
    throw error;
  }
  const pgliteDb = drizzlePglite(tagDriverErrors(client));
  return {
    db: pgliteDb as unknown as Database,
    driver: 'pglite',
    migrate: () => migratePglite(pgliteDb, { migrationsFolder }),
    follow: (channel, handlers) => followPglite(client, channel, handlers),
    snapshot: async (file) => {
      if (onDisk) return onlineSnapshot(client, options.pgliteDir, file);
      await client.exec('checkpoint');
      await writeFile(file, Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer()), {
        mode: 0o600,
      });
    },
    close: async () => {
      await client.close();
      await release();
    },
  };
}
