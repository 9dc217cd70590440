import { createSessionCache } from './auth/session-cache';
import { createShopCaches } from './catalogue/catalogue-cache';
import { createDashboardOperators } from './dashboard/routes/guard';
import { createDatabaseHealth } from './db/health';
import type { Database, PoolStats } from './db/index';
import { createLocalRateLimiter, createRateLimiter } from './http/rate-limit';
import { createPdfFonts } from './invoices/pdf-text';
import { type Clock, systemClock } from './kernel/clock';
import type { Config } from './kernel/config';
import type { AppContext } from './kernel/context';
import { createDataSecrets } from './kernel/data-secrets';
import { createLicenseLoaders } from './licenses/lookup';
import { createLicenseMemory } from './licenses/memory';
import { createSigningKeys } from './licenses/signing';
import { createMailQueuedHint } from './mail/outbox';
import { createMetrics } from './metrics';
import { createGateway } from './payments/gateway';
import { createAdoptionRecorder } from './releases/adoption';
import { createReleaseMemory } from './releases/memory';
import { createReleaseSigner } from './releases/signing';
import { type FileStorage, storageFor } from './storage';

/** Counters of the license API's per-key and per-address limits held by one instance. */
const LOCAL_LIMITER_MAX_KEYS = 100_000;

export type AppContextOptions = {
  config: Config;
  db: Database;
  clock?: Clock;
  /** Where uploaded tool files live; DATA_DIR/files unless a test or another host supplies its own. */
  storage?: FileStorage;
  /** From the database handle (`DatabaseHandle.poolStats`) where the database has a pool. */
  poolStats?: () => PoolStats;
};

/**
 * The composition root's one factory: each feature's slot of the context (kernel/context.ts), built once per app
 * instance from configuration and the database. Nothing here reads or writes the database: startup.ts makes the writes a start needs.
 */
export function createAppContext(options: AppContextOptions): AppContext {
  const { config, db } = options;
  const clock = options.clock ?? systemClock;
  const dataSecrets = createDataSecrets(config);
  return {
    config,
    db,
    dbHealth: createDatabaseHealth(db),
    clock,
    limiter: createRateLimiter(db, clock),
    licenseLimiter: createLocalRateLimiter(clock, LOCAL_LIMITER_MAX_KEYS),
    licenseLoaders: createLicenseLoaders(db, dataSecrets),
    adoption: createAdoptionRecorder(db, clock),
    gateway: createGateway(config),
    storage: options.storage ?? storageFor(config),
    caches: {
      sessions: createSessionCache(),
      ...createShopCaches(),
      ...createLicenseMemory(),
      ...createReleaseMemory(),
    },
    mailQueued: createMailQueuedHint(),
    pdfFonts: createPdfFonts(),
    dashboardOperators: createDashboardOperators(),
    licenseSigning: createSigningKeys(config),
    releaseSigning: createReleaseSigner(config),
    licenseChanges: {},
    releaseChanges: {},
    dataSecrets,
    // Process figures (memory, event-loop delay) only where they are served: one monitor per real server.
    metrics: createMetrics({ withProcessMetrics: config.metricsToken !== undefined }),
    poolStats: options.poolStats,
  };
}
