import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, ne, or } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DbOrTx } from '../db';
import { sessions, users } from '../db/schema/accounts';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { countryOf } from '../location/routes';
import type { SessionUser } from './session-cache';

export const SESSION_COOKIE = 'sessionid';
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    /** Cached result of the session look-up for this request (undefined: not looked up yet). */
    sessionUser?: SessionUser | null;
  }
}

/** How stale a session's last_used_at may get: one write a minute at most, never one per request. */
export const LAST_USED_PRECISION_MS = 60 * 1000;
const USER_AGENT_MAX_LENGTH = 512;

export const hashSessionId = (id: string) => createHash('sha256').update(id).digest('hex');

/** The hash of the session the request carries, if it carries one that could be a session id. */
export function sessionIdHashOf(request: FastifyRequest): string | null {
  const id = request.cookies[SESSION_COOKIE];
  return id && id.length <= 100 ? hashSessionId(id) : null;
}

/**
 * Creates a session row and sets the cookie. The raw id exists only in the cookie; the row holds its hash, and
 * the browser and country it signed in from, for the account page's list of sessions.
 */
async function startSession(
  ctx: AppContext,
  db: DbOrTx,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  const id = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const userAgent = request.headers['user-agent']?.slice(0, USER_AGENT_MAX_LENGTH) ?? null;
  await db.insert(sessions).values({
    idHash: hashSessionId(id),
    userId,
    expiresAt,
    createdAt: now,
    lastUsedAt: now,
    // Signing in is the freshest proof there is: the risky changes need no second one for 10 minutes.
    reauthenticatedAt: now,
    userAgent,
    country: countryOf(request, ctx.config),
  });
  reply.setCookie(SESSION_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.isProduction,
    expires: expiresAt,
  });
}

export function clearSessionCookie(ctx: AppContext, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.isProduction,
  });
}

/** Deletes the session the request carries, if any. */
export async function endSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const id = request.cookies[SESSION_COOKIE];
  if (id) {
    const idHash = hashSessionId(id);
    await ctx.db.delete(sessions).where(eq(sessions.idHash, idHash));
    ctx.caches.sessions.delete(idHash);
  }
  request.sessionUser = null;
  clearSessionCookie(ctx, reply);
}

/**
 * Logs the request in as `userId` with a brand-new session id, deleting the session it carried before (if any):
 * an id planted in the browser before login is worthless afterwards.
 */
export async function rotateSession(
  ctx: AppContext,
  db: DbOrTx,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  const previous = request.cookies[SESSION_COOKIE];
  if (previous && previous.length <= 100) {
    const idHash = hashSessionId(previous);
    await db.delete(sessions).where(eq(sessions.idHash, idHash));
    ctx.caches.sessions.delete(idHash);
  }
  request.sessionUser = undefined;
  await startSession(ctx, db, request, reply, userId);
}

/** Deletes every session of the user; call `forgetSessionsOf` once the transaction has committed. */
export async function endAllSessions(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Deletes every session of the user but the one `keepIdHash` names (the browser asking); returns how many. */
export async function endOtherSessions(db: DbOrTx, userId: string, keepIdHash: string): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash)))
    .returning({ idHash: sessions.idHash });
  return ended.length;
}

/** Drops this instance's memory of the user's sessions, after they were deleted or the user changed. */
export function forgetSessionsOf(ctx: AppContext, userId: string): void {
  ctx.caches.sessions.deleteWhere((known) => known.user.id === userId);
}

/** The logged-in user, or null: from this instance's session cache, else one query; kept on the request. */
export async function currentUser(ctx: AppContext, request: FastifyRequest): Promise<SessionUser | null> {
  if (request.sessionUser !== undefined) return request.sessionUser;
  const id = request.cookies[SESSION_COOKIE];
  if (!id || id.length > 100) {
    request.sessionUser = null;
    return null;
  }
  const idHash = hashSessionId(id);
  const cache = ctx.caches.sessions;
  const now = ctx.clock.now();
  const known = cache.get(idHash);
  if (known && known.expiresAt > now.getTime()) {
    request.sessionUser = known.user;
    return known.user;
  }
  const generation = cache.generation;
  const [row] = await ctx.db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      phone: users.phone,
      expiresAt: sessions.expiresAt,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) {
    request.sessionUser = null;
    return null;
  }
  const { expiresAt, lastUsedAt, ...user } = row;
  if (!lastUsedAt || now.getTime() - lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
    await markUsed(ctx, idHash, now);
  }
  cache.set(idHash, { user, expiresAt: expiresAt.getTime() }, generation);
  request.sessionUser = user;
  return user;
}

/**
 * Stamps the session's last use. Only a request that found it a minute stale gets here (cached look-ups never do),
 * and the condition keeps two such requests at once to one write.
 */
async function markUsed(ctx: AppContext, idHash: string, now: Date): Promise<void> {
  const staleBefore = new Date(now.getTime() - LAST_USED_PRECISION_MS);
  await ctx.db
    .update(sessions)
    .set({ lastUsedAt: now })
    .where(
      and(eq(sessions.idHash, idHash), or(isNull(sessions.lastUsedAt), lt(sessions.lastUsedAt, staleBefore))),
    );
}

/** The logged-in user, or a 401. */
export async function requireUser(ctx: AppContext, request: FastifyRequest): Promise<SessionUser> {
  const user = await currentUser(ctx, request);
  if (!user) throw new DomainError('unauthorized', 'Please log in to continue.');
  return user;
}
