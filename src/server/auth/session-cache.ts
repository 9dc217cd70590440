import { TtlCache } from '../kernel/ttl-cache';

export type SessionUser = { id: string; name: string; email: string; phone: string };

/**
 * How long this instance trusts a session it has looked up, so signed-in reads do not each cost a query. Logout,
 * login and password reset on this instance drop the entry at once; the TTL bounds how long a logout or reset
 * on another instance takes to reach this one (with PGlite there is only ever one instance).
 */
export const SESSION_CACHE_TTL_MS = 2_000;
const SESSION_CACHE_MAX_ENTRIES = 10_000;

type KnownSession = { user: SessionUser; expiresAt: number };

/** This instance's memory of sessions it looked up, by the hash of their id. Each app context has its own. */
export type SessionCache = TtlCache<string, KnownSession>;

declare module '../kernel/context' {
  interface AppCaches {
    sessions: SessionCache;
  }
}

export function createSessionCache(): SessionCache {
  return new TtlCache(SESSION_CACHE_TTL_MS, SESSION_CACHE_MAX_ENTRIES);
}
