import { type KnownSession, SESSION_CACHE_TTL_MS } from './auth/session';
import { type Clock, systemClock } from './clock';
import type { Config } from './config';
import type { Database } from './db';
import { createDatabaseHealth, type DatabaseHealth } from './db/health';
import {
  createLocalRateLimiter,
  createRateLimiter,
  type LocalRateLimiter,
  type RateLimiter,
} from './http/rate-limit';
import type { LicenseChangeFeed } from './licenses/change-feed';
import {
  createLicenseLoaders,
  type KnownLicense,
  LICENSE_CACHE_MAX_ENTRIES,
  LICENSE_CACHE_TTL_MS,
  type LicenseLoaders,
  UNKNOWN_LICENSE_CACHE_MAX_ENTRIES,
  UNKNOWN_LICENSE_CACHE_TTL_MS,
} from './licenses/service';
import { createSigningKeys, type SigningKeys } from './licenses/signing';
import { createMailQueuedHint, type MailQueuedHint } from './mail/outbox';
import { createGateway, type RazorpayGateway } from './payments/gateway';
import type { CatalogueCache } from './shop/catalogue';
import { type FileStorage, storageFor } from './storage';
import { TtlCache } from './ttl-cache';

const SESSION_CACHE_MAX_ENTRIES = 10_000;
/** Counters of the license API's per-key and per-address limits held by one instance. */
const LOCAL_LIMITER_MAX_KEYS = 100_000;

/**
 * What this instance remembers of rows that live in the database. Each context has its own, so two app instances
 * in one process (tests) never see each other's entries.
 */
export type AppCaches = {
  sessions: TtlCache<string, KnownSession>;
  /** For the catalogue's `purchased` flags only; paying, downloading and re-sending check the database. */
  ownedTools: TtlCache<string, Set<string>>;
  /** Replaced by a fresh object to invalidate, so a load that started before never stores what it read. */
  catalogue: CatalogueCache;
  /** For `POST /api/licenses/validate`: a license as one machine sees it, by credential and fingerprint. */
  licenses: TtlCache<string, KnownLicense>;
  /** Credentials that named no license, kept apart and briefly so bad keys cannot push out good entries. */
  unknownLicenses: TtlCache<string, true>;
};

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
};

export type AppContextOptions = {
  config: Config;
  db: Database;
  clock?: Clock;
  /** Where uploaded tool files live; DATA_DIR/files unless a test or another host supplies its own. */
  storage?: FileStorage;
};

export function createAppContext(options: AppContextOptions): AppContext {
  const { config, db } = options;
  const clock = options.clock ?? systemClock;
  return {
    config,
    db,
    dbHealth: createDatabaseHealth(db),
    clock,
    limiter: createRateLimiter(db, clock),
    licenseLimiter: createLocalRateLimiter(clock, LOCAL_LIMITER_MAX_KEYS),
    licenseLoaders: createLicenseLoaders(db),
    gateway: createGateway(config),
    storage: options.storage ?? storageFor(config),
    caches: {
      sessions: new TtlCache(SESSION_CACHE_TTL_MS, SESSION_CACHE_MAX_ENTRIES),
      ownedTools: new TtlCache(SESSION_CACHE_TTL_MS, SESSION_CACHE_MAX_ENTRIES),
      catalogue: {},
      licenses: new TtlCache(LICENSE_CACHE_TTL_MS, LICENSE_CACHE_MAX_ENTRIES),
      unknownLicenses: new TtlCache(UNKNOWN_LICENSE_CACHE_TTL_MS, UNKNOWN_LICENSE_CACHE_MAX_ENTRIES),
    },
    seed: {},
    mailQueued: createMailQueuedHint(),
    licenseSigning: createSigningKeys(config),
    licenseChanges: {},
  };
}
