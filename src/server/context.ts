import { createSessionCache, type SessionCache } from './auth/session-cache';
import { type Clock, systemClock } from './clock';
import type { Config } from './config';
import { createDataSecrets, type DataSecrets } from './data-secrets';
import type { Database, PoolStats } from './db';
import { createDatabaseHealth, type DatabaseHealth } from './db/health';
import {
  createLocalRateLimiter,
  createRateLimiter,
  type LocalRateLimiter,
  type RateLimiter,
} from './http/rate-limit';
import { createLicenseLoaders, type LicenseLoaders } from './licenses/lookup';
import { createLicenseMemory, type LicenseChangeFeed, type LicenseMemory } from './licenses/memory';
import { createSigningKeys, type SigningKeys } from './licenses/signing';
import { createMailQueuedHint, type MailQueuedHint } from './mail/outbox';
import { createMetrics, type Metrics } from './metrics';
import { createGateway, type RazorpayGateway } from './payments/gateway';
import { createShopCaches, type ShopCaches } from './shop/catalogue-cache';
import { type FileStorage, storageFor } from './storage';

/** Counters of the license API's per-key and per-address limits held by one instance. */
const LOCAL_LIMITER_MAX_KEYS = 100_000;

/**
 * What this instance remembers of rows that live in the database, as each feature makes it: sessions (auth), the
 * catalogue and owned tools (shop), licenses (licenses). Each context has its own, so two app instances in one
 * process (tests) never see each other's entries.
 */
export type AppCaches = { sessions: SessionCache } & ShopCaches & LicenseMemory;

/**
 * Everything a feature service works with: configuration, the database (and what this instance knows of its
 * reachability), the clock, and the per-instance services
 * built once from them. Services are functions of this context; the HTTP app, the admin command line and the tests
 * all build it with `createAppContext`.
 */
export type AppContext = {
  config: Config;
  db: Database;
  dbHealth: DatabaseHealth;
  clock: Clock;
  limiter: RateLimiter;
  /** The license API's limits, counted in this instance's memory (decision 016); all other limits use `limiter`. */
  licenseLimiter: LocalRateLimiter;
  /** Validate's look-ups and "last seen" writes, gathered per turn of the event loop into one query each. */
  licenseLoaders: LicenseLoaders;
  gateway: RazorpayGateway;
  storage: FileStorage;
  caches: AppCaches;
  /** Seeds the default catalogue once per context; a failed attempt is retried on the next call. */
  seed: { pending?: Promise<unknown> };
  /** "Mail was queued": lets a running outbox worker deliver soon instead of on its next tick. */
  mailQueued: MailQueuedHint;
  /** The Ed25519 key that signs offline license files, and the public keys that still verify them. */
  licenseSigning: SigningKeys;
  /** Whether this instance hears license changes as they commit (set by `followLicenseChanges` in main.ts). */
  licenseChanges: LicenseChangeFeed;
  /** Hashes and seals secrets kept in the database (license keys, credential passwords): decision 032. */
  dataSecrets: DataSecrets;
  /** This instance's Prometheus figures (metrics/index.ts), counted by the features and served on `/metrics`. */
  metrics: Metrics;
  /** The PostgreSQL pool's connections, read when Prometheus scrapes; undefined on PGlite, which has no pool. */
  poolStats: (() => PoolStats) | undefined;
};

export type AppContextOptions = {
  config: Config;
  db: Database;
  clock?: Clock;
  /** Where uploaded tool files live; DATA_DIR/files unless a test or another host supplies its own. */
  storage?: FileStorage;
  /** From the database handle (`DatabaseHandle.poolStats`) where the database has a pool. */
  poolStats?: () => PoolStats;
};

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
    gateway: createGateway(config),
    storage: options.storage ?? storageFor(config),
    caches: { sessions: createSessionCache(), ...createShopCaches(), ...createLicenseMemory() },
    seed: {},
    mailQueued: createMailQueuedHint(),
    licenseSigning: createSigningKeys(config),
    licenseChanges: {},
    dataSecrets,
    // Process figures (memory, event-loop delay) only where they are served: one monitor per real server.
    metrics: createMetrics({ withProcessMetrics: config.metricsToken !== undefined }),
    poolStats: options.poolStats,
  };
}
