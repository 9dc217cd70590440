import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { type AdminSocket, startAdminSocket } from './cli/socket';
import { createAppContext } from './compose';
import { openDatabase } from './db';
import { backgroundJobs, pgliteBackupJob, startJobs } from './jobs';
import { ConfigError, loadConfig } from './kernel/config';
import { createOwnerOnlyFiles, repairDataDirModes, reportDataDirRepair } from './kernel/data-dir';
import { followLicenseChanges } from './licenses/change-feed';
import { followReleaseChanges } from './releases/memory';
import { logStartUp, startUp } from './startup';

const rootDir = path.resolve(import.meta.dirname, '../..');
/**
 * After the drain, how long requests in flight, background runs and admin commands get to finish before the process
 * ends anyway (deploy/pinkcity-shop@.service's TimeoutStopSec allows the drain and this, and a margin).
 */
const SHUTDOWN_CLOSE_MS = 20_000;

async function main(): Promise<void> {
  createOwnerOnlyFiles();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const dataDirRepair = repairDataDirModes(config.dataDir);

  let log: { warn(obj: object, msg: string): void } | undefined;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
    onConnectionError: (err) => log?.warn({ err }, 'database connection lost; the pool will reconnect'),
  });
  const ctx = createAppContext({ config, db: database.db, poolStats: database.poolStats });
  const started = await startUp(database, ctx);

  const { app } = await buildApp({
    ctx,
    siteDir: path.resolve(rootDir, process.env.SITE_DIR ?? 'dist/client'),
    // A person at a terminal in development reads lines; production, and anything reading the output, gets JSON.
    logger: {
      level: config.logLevel,
      ...(!config.isProduction && process.stdout.isTTY
        ? {
            transport: {
              target: 'pino-pretty',
              options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true },
            },
          }
        : {}),
    },
  });
  log = app.log;
  reportDataDirRepair(app.log, dataDirRepair);
  logStartUp(app.log, started);
  const jobs = startJobs(
    [
      ...backgroundJobs(ctx, app.log),
      ...(database.snapshot ? [pgliteBackupJob(database.snapshot, config.dataDir, app.log)] : []),
    ],
    app.log,
    ctx.dbHealth,
    ctx.metrics,
  );

  const licenseChanges = await followLicenseChanges(ctx, database, (err) =>
    app.log.warn({ err }, 'license change feed interrupted; validate answers from memory for 1 s only'),
  );
  const releaseChanges = await followReleaseChanges(ctx, database, (err) =>
    app.log.warn({ err }, 'release change feed interrupted; feeds read releases from the database meanwhile'),
  );

  let adminSocket: AdminSocket | undefined;
  // SIGTERM (systemd; a rolling deploy, README "Run two instances behind HAProxy") or Ctrl-C. Readiness goes first,
  // so the load balancer stops sending requests while the drain answers those still arriving; then it closes. Past
  // the bound the process ends anyway (exit 1), before systemd's TimeoutStopSec; a second signal ends it at once.
  closeWithGrace(
    {
      delay: config.shutdownDrainMs + SHUTDOWN_CLOSE_MS,
      logger: app.log,
      // A crash stays a crash (Node's default), not a graceful shutdown.
      skip: ['uncaughtException', 'unhandledRejection'],
    },
    async ({ signal }) => {
      app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: not ready from now on');
      app.startDraining();
      await sleep(config.shutdownDrainMs);
      await jobs.stop();
      await adminSocket?.close();
      await licenseChanges.close();
      await releaseChanges.close();
      await app.close();
      await database.close();
    },
  );

  await app.listen({ port: config.port, host: config.host });
  // The embedded database admits this process only: `npm run admin` asks it to run commands (decision 017).
  if (database.driver === 'pglite') {
    adminSocket = await startAdminSocket({
      dataDir: config.dataDir,
      env: { open: async () => ctx, snapshot: async () => database.snapshot },
      log: app.log,
    });
  }
  app.log.info(
    {
      url: config.publicUrl,
      database: database.driver,
      mail: config.smtpUrl ? 'smtp' : 'dev mailbox',
      razorpay: config.razorpay.emulated ? 'emulator' : 'live keys',
    },
    'ready',
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
