import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type RegisteredRoute } from '../../src/server/app';
import { createAppContext } from '../../src/server/compose';
import { type DatabaseHandle, openDatabase } from '../../src/server/db/index';
import { ManualClock } from '../../src/server/kernel/clock';
import { type Config, loadConfig } from '../../src/server/kernel/config';
import type { AppContext } from '../../src/server/kernel/context';
import type { RazorpayEmulator } from '../../src/server/payments/emulator/index';
import { startUp } from '../../src/server/startup';
import { TestClient } from './client';
import { createTestDatabase } from './database';
import { TEST_DATA_SECRET_KEY, testPasswordHashCost } from './settings';

export type TestApp = {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  database: DatabaseHandle;
  clock: ManualClock;
  /** The Razorpay emulator the app mounted, when it runs without Razorpay keys. */
  emulator: RazorpayEmulator | undefined;
  /** Every route the app registered (method and URL pattern). */
  routes: ReadonlyArray<RegisteredRoute>;
  /** A new browser-like client with its own cookie jar (csrftoken already fetched). */
  client(options?: { ip?: string }): Promise<TestClient>;
  close(): Promise<void>;
};

/** One license signing key per test process: production settings need one, and nothing is written to disk. */
const TEST_LICENSE_SIGNING_KEY = generateKeyPairSync('ed25519')
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();

/** The release signing key of every test app; a process a test starts on the same database must be given it too. */
export const TEST_RELEASE_SIGNING_KEY = generateKeyPairSync('ed25519')
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    ...testPasswordHashCost(env),
    NODE_ENV: 'test',
    DATA_DIR: '.tmp/test-data',
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    LICENSE_SIGNING_KEY: TEST_LICENSE_SIGNING_KEY,
    RELEASE_SIGNING_KEY: TEST_RELEASE_SIGNING_KEY,
    DATA_SECRET_KEY: TEST_DATA_SECRET_KEY,
    ...env,
  });
}

/** The real app on a fresh migrated database, with a clock the test controls. Nothing listens on a port. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    now?: Date;
    /** Called before the app is ready: a test may add its own hooks to watch what the app does. */
    prepare?: (app: FastifyInstance) => void;
    /** A built site to serve (its pages' routes with it); none by default. */
    siteDir?: string;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const clock = new ManualClock(options.now ?? new Date('2026-06-01T10:00:00Z'));
  return appOn(database, testConfig(options.env), clock, options);
}

/**
 * The real app on an existing database, as the server would open it from `env`: DATABASE_URL, or the PGlite files
 * in DATA_DIR. For tests that look at what another process (the admin command line) changed; close it before that
 * process runs, since PGlite files take one process at a time.
 */
export async function openTestApp(options: { env: Record<string, string>; now?: Date }): Promise<TestApp> {
  const config = testConfig(options.env);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  return appOn(database, config, new ManualClock(options.now ?? new Date()));
}

/**
 * A second instance of `t`'s app: its own context (memory, limits, adoption recorder) and routes on the same
 * database, configuration and clock, as a second server behind the load balancer would be.
 */
export async function secondInstance(t: TestApp): Promise<Pick<TestApp, 'app' | 'ctx' | 'close'>> {
  const ctx = createAppContext({
    config: t.config,
    db: t.database.db,
    clock: t.clock,
    poolStats: t.database.poolStats,
  });
  const { app } = await buildApp({ ctx });
  await app.ready();
  return { app, ctx, close: () => app.close() };
}

async function appOn(
  database: DatabaseHandle,
  config: Config,
  clock: ManualClock,
  { prepare, siteDir }: { prepare?: (app: FastifyInstance) => void; siteDir?: string } = {},
): Promise<TestApp> {
  // As the server starts: the writes a start makes (the default catalogue among them) before anything reads.
  const started = createAppContext({ config, db: database.db, clock, poolStats: database.poolStats });
  await startUp(database, started);
  const { app, ctx, emulator, routes } = await buildApp({ ctx: started, siteDir });
  prepare?.(app);
  await app.ready();
  return {
    app,
    ctx,
    config,
    database,
    clock,
    emulator,
    routes,
    async client(clientOptions = {}) {
      const client = new TestClient(app, clientOptions.ip);
      await client.get('/api/csrf-token/');
      return client;
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}
