import { sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Database } from '../db';
import { rateLimitHits } from '../db/schema';
import { makeRoom } from '../ttl-cache';
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
  /** Removes windows older than a day: called from a maintenance timer. */
  prune(): Promise<void>;
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
    async prune() {
      const cutoff = new Date(clock.now().getTime() - 2 * 24 * 60 * 60 * 1000);
      await db.delete(rateLimitHits).where(sql`${rateLimitHits.windowStart} < ${cutoff}`);
    },
  };
}

/** Fixed-window counters kept in one instance's memory: the same windows and answers as `RateLimiter.consume`. */
export type LocalRateLimiter = {
  /** Counts one hit; throws 429 with Retry-After when the window's limit is already reached. */
  consume(limit: Limit): void;
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
  type Counter = { count: number; limit: number };
  const windows = new Map<number, { start: number; counters: Map<string, Counter> }>();

  const makeRoomSparingRefused = (counters: Map<string, Counter>) => {
    if (counters.size < maxKeys) return;
    let excess = counters.size - maxKeys + Math.max(1, Math.floor(maxKeys / 10));
    for (const [key, counter] of counters) {
      if (excess <= 0) return;
      if (counter.count >= counter.limit) continue;
      counters.delete(key);
      excess--;
    }
    // Every counter is at its limit: the oldest go after all.
    makeRoom(counters, maxKeys);
  };

  return {
    consume({ key, limit, windowMs, message }) {
      const now = clock.now().getTime();
      const start = now - (now % windowMs);
      let window = windows.get(windowMs);
      if (window?.start !== start) {
        window = { start, counters: new Map() };
        windows.set(windowMs, window);
      }
      let counter = window.counters.get(key);
      if (!counter) {
        makeRoomSparingRefused(window.counters);
        counter = { count: 0, limit };
        window.counters.set(key, counter);
      }
      counter.count += 1;
      if (counter.count > limit) throw tooManyRequests(Math.ceil((start + windowMs - now) / 1000), message);
    },
  };
}
