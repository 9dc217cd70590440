import type { Clock } from './clock';
import type { Config } from './config';
import type { Database } from './db';
import type { RateLimiter } from './http/rate-limit';

/** What every feature's routes get: configuration, the database, the clock and the shared rate limiter. */
export type AppContext = {
  config: Config;
  db: Database;
  clock: Clock;
  limiter: RateLimiter;
};
