import { sql } from 'drizzle-orm';
import { isDriverError } from './driver-errors';
import type { Database } from './index';

/** How long a client is told to wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/** How often an instance that lost its database asks whether it is back. */
const PROBE_INTERVAL_MS = 1000;
/** A probe that has not answered by then counts as a failure (a half-open connection never answers). */
const PROBE_TIMEOUT_MS = 3000;

/**
 * PostgreSQL error classes that mean "the server is not there right now" rather than "this query is wrong":
 * 08 connection exception, 57P01–57P03 admin/crash shutdown and "cannot connect now" (starting up), 53300 too many
 * connections.
 */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[123]$|53300$)/;
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection/i;

/** True when the error (or anything in its cause chain) says the database cannot be reached, not that a query failed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code)))
      return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    // Several addresses tried at once (IPv4 and IPv6) fail as one AggregateError.
    if (current instanceof AggregateError && current.errors.some((inner) => isDatabaseUnavailable(inner)))
      return true;
    current = cause;
  }
  return false;
}

export type DatabaseHealth = {
  /** False from the first "unreachable" error until a probe gets an answer again. */
  readonly available: boolean;
  /**
   * Looks at an error a query raised: when the database driver raised it and it means the database is unreachable,
   * the instance marks it down and starts probing. Returns whether it did. Anything else (a client resetting its
   * own request says ECONNRESET too) is not the database's and never counts.
   */
  observe(error: unknown): boolean;
  /** One round trip now: the answer behind GET /api/ready. */
  ping(): Promise<boolean>;
  /** Where the outage and the recovery are reported from now on (the app's logger, once it exists). */
  logTo(log: HealthLog): void;
  /** Stops probing (server shutdown). */
  stop(): void;
};

declare module '../kernel/context' {
  interface AppContext {
    /** What this instance knows of the database's reachability. */
    dbHealth: DatabaseHealth;
  }
}

export type HealthLog = { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };

/**
 * What one app instance knows about its database. An outage is noticed from the errors queries raise; from then
 * on the instance answers API calls with 503 at once instead of queueing them on a dead pool, and asks the database
 * every second until it answers, so it recovers by itself within about a second of the database returning.
 */
export function createDatabaseHealth(db: Database, initialLog?: HealthLog): DatabaseHealth {
  let log = initialLog;
  let available = true;
  let probing: NodeJS.Timeout | undefined;
  let stopped = false;

  const ping = async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    });
    try {
      return await Promise.race([db.execute(sql`select 1`).then(() => true as const), timeout]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };

  const probe = async () => {
    probing = undefined;
    if (stopped) return;
    if (await ping()) {
      available = true;
      log?.info({}, 'database reachable again');
      return;
    }
    probing = setTimeout(probe, PROBE_INTERVAL_MS);
    probing.unref();
  };

  return {
    get available() {
      return available;
    },
    observe(error) {
      if (!isDriverError(error) || !isDatabaseUnavailable(error)) return false;
      if (available) {
        available = false;
        log?.warn({ err: error }, 'database unreachable: answering 503 until it is back');
      }
      if (!probing && !stopped) {
        probing = setTimeout(probe, PROBE_INTERVAL_MS);
        probing.unref();
      }
      return true;
    },
    ping,
    logTo(next) {
      log = next;
    },
    stop() {
      stopped = true;
      clearTimeout(probing);
    },
  };
}
