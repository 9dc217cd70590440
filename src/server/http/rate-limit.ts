import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db';
import { countedDelete, PRUNE_BATCH, type Prune } from '../db/prune';
import { rateLimitHits } from '../db/schema/rate-limits';
import type { Clock } from '../kernel/clock';
import { tooManyRequests } from './errors';

export type Limit = { key: string; limit: number; windowMs: number; message?: string };

export type RateLimiter = {
  /** Counts one hit; throws 429 with Retry-After when the window's limit is already reached. */
  consume(limit: Limit): Promise<void>;
  /**
   * Takes one unit of a failure budget before the attempt is judged, so concurrent attempts cannot all pass a
   * check that only the recorded failures would have closed: 429 when the budget is spent. Call the returned
   * `refund` when the attempt turned out not to be a failure (a correct password).
   */
  reserve(limit: Limit): Promise<{ refund(): Promise<void> }>;
};

/**
 * Fixed-window counters in the database, so every app instance shares them.
 * One upsert per counted hit; the window start is the key's time bucket.
 */
export function createRateLimiter(db: Database, clock: Clock): RateLimiter {
  const windowOf = (windowMs: number) => {
    const now = clock.now().getTime();
    const start = Math.floor(now / windowMs) * windowMs;
    return { start: new Date(start), retryAfter: Math.ceil((start + windowMs - now) / 1000) };
  };

  const increment = async (key: string, windowMs: number) => {
    const window = windowOf(windowMs);
    const rows = await db
      .insert(rateLimitHits)
      .values({ key, windowStart: window.start, count: 1 })
      .onConflictDoUpdate({
        target: [rateLimitHits.key, rateLimitHits.windowStart],
        set: { count: sql`${rateLimitHits.count} + 1` },
      })
      .returning({ count: rateLimitHits.count });
    return { count: rows[0]?.count ?? 1, window };
  };

  return {
    async consume({ key, limit, windowMs, message }) {
      const { count, window } = await increment(key, windowMs);
      if (count > limit) throw tooManyRequests(window.retryAfter, message);
    },
    async reserve({ key, limit, windowMs, message }) {
      const { count, window } = await increment(key, windowMs);
      if (count > limit) throw tooManyRequests(window.retryAfter, message);
      return {
        async refund() {
          await db
            .update(rateLimitHits)
            .set({ count: sql`greatest(${rateLimitHits.count} - 1, 0)` })
            .where(sql`${rateLimitHits.key} = ${key} and ${rateLimitHits.windowStart} = ${window.start}`);
        },
      };
    },
  };
}

/** One window of a `LocalRateLimiter`: the counters of the keys hit in it. */
type LocalWindow = {
  readonly start: number;
  readonly windowMs: number;
  readonly counters: Map<string, LocalCounter>;
};

/** One key's count in one window of a `LocalRateLimiter`. */
export type LocalCounter = {
  readonly window: LocalWindow;
  readonly limit: number;
  readonly message: string | undefined;
  count: number;
};

/** Fixed-window counters kept in one instance's memory: the same windows and answers as `RateLimiter.consume`. */
export type LocalRateLimiter = {
  /** Counts one hit; throws 429 with Retry-After when the window's limit is already reached. Returns the counter. */
  consume(limit: Limit): LocalCounter;
};

/**
 * Fixed-window counters in this instance's memory, for limits checked on calls too frequent to pay a database
 * write each (the license API, decision 016). Each instance counts what it serves, so behind N instances a key
 * may make up to N times the limit.
 *
 * One map of counters per window length, replaced whole when its window ends: nothing is swept key by key (every
 * caller's address is a new key, so this runs with tens of thousands of them), and a repeat hit only adds one to
 * its counter. At most `maxKeys` counters are held per window: a key first seen when the map is full pushes out the
 * tenth counted first, sparing those already at their limit, so a flood of new keys cannot reopen a key being
 * refused.
 */
export function createLocalRateLimiter(clock: Clock, maxKeys: number): LocalRateLimiter {
  const windows = new Map<number, LocalWindow>();

  const windowAt = (now: number, windowMs: number): LocalWindow => {
    const start = now - (now % windowMs);
    let window = windows.get(windowMs);
    if (window?.start !== start) {
      window = { start, windowMs, counters: new Map() };
      windows.set(windowMs, window);
    }
    return window;
  };

  const makeRoomSparingRefused = (counters: Map<string, LocalCounter>) => {
    if (counters.size < maxKeys) return;
    let excess = counters.size - maxKeys + Math.max(1, Math.floor(maxKeys / 10));
    const drop = (key: string) => {
      counters.delete(key);
      excess--;
    };
    for (const [key, counter] of counters) {
      if (excess <= 0) return;
      if (counter.count < counter.limit) drop(key);
    }
    // Every counter is at its limit: the oldest go after all.
    for (const key of counters.keys()) {
      if (excess <= 0) return;
      drop(key);
    }
  };

  const count = (counter: LocalCounter, now: number) => {
    counter.count += 1;
    if (counter.count <= counter.limit) return;
    const { start, windowMs } = counter.window;
    throw tooManyRequests(Math.ceil((start + windowMs - now) / 1000), counter.message);
  };

  return {
    consume({ key, limit, windowMs, message }) {
      const now = clock.now().getTime();
      const window = windowAt(now, windowMs);
      let counter = window.counters.get(key);
      if (!counter) {
        makeRoomSparingRefused(window.counters);
        counter = { window, limit, message, count: 0 };
        window.counters.set(key, counter);
      }
      count(counter, now);
      return counter;
    },
  };
}

declare module '../kernel/context' {
  interface AppContext {
    limiter: RateLimiter;
    /** The license API's limits, counted in this instance's memory (decision 016); all other limits use `limiter`. */
    licenseLimiter: LocalRateLimiter;
  }
}

/**
 * Counts one hit of `key` at exactly `at`, inside the caller's transaction: for limits that read their own
 * history back as a sliding log (auth/codes.ts spaces code sends per email) instead of a fixed window.
 */
export async function recordHit(tx: DbOrTx, key: string, at: Date): Promise<void> {
  await tx
    .insert(rateLimitHits)
    .values({ key, windowStart: at, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitHits.key, rateLimitHits.windowStart],
      set: { count: sql`${rateLimitHits.count} + 1` },
    });
}

/** Counters whose window is long past. */
export const rateLimitPrune: Prune = {
  rule: 'rateLimitCounters',
  deleteBatch: (tx, cutoff) =>
    countedDelete(
      tx,
      sql`delete from rate_limit_hits where (key, window_start) in
        (select key, window_start from rate_limit_hits where window_start < ${cutoff} limit ${PRUNE_BATCH})
        returning 1`,
    ),
};

/** Erasure: the counters keyed on an address (every address-keyed counter ends with `:<address>`). */
export async function forgetHitsOf(tx: DbOrTx, email: string): Promise<void> {
  await tx.execute(sql`delete from rate_limit_hits where right(key, ${email.length + 1}) = ${`:${email}`}`);
}
