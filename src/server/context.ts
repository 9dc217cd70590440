import type { Clock } from './clock';
import type { Config } from './config';
import type { Database } from './db';
import type { DatabaseHealth } from './db/health';
import type { RateLimiter } from './http/rate-limit';

/**
 * What every feature's routes get: configuration, the database and what this instance knows of its reachability,
 * the clock and the shared rate limiter.
 */
export type AppContext = {
  config: Config;
  db: Database;
  dbHealth: DatabaseHealth;
  clock: Clock;
  limiter: RateLimiter;
};
