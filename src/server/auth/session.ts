import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db';
import { sessions, users } from '../db/schema';
import { unauthorized } from '../http/errors';
import type { SessionUser } from './session-cache';

export const SESSION_COOKIE = 'sessionid';
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    /** Cached result of the session look-up for this request (undefined: not looked up yet). */
    sessionUser?: SessionUser | null;
  }
}

export const hashSessionId = (id: string) => createHash('sha256').update(id).digest('hex');

/** Creates a session row and sets the cookie. The raw id exists only in the cookie; the row holds its hash. */
export async function startSession(
  ctx: AppContext,
  db: DbOrTx,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  const id = randomBytes(32).toString('base64url');
  const expiresAt = new Date(ctx.clock.now().getTime() + SESSION_TTL_MS);
  await db
    .insert(sessions)
    .values({ idHash: hashSessionId(id), userId, expiresAt, createdAt: ctx.clock.now() });
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
  await startSession(ctx, db, reply, userId);
}

/** Deletes every session of the user; call `forgetSessionsOf` once the transaction has committed. */
export async function endAllSessions(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
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
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) {
    request.sessionUser = null;
    return null;
  }
  const { expiresAt, ...user } = row;
  cache.set(idHash, { user, expiresAt: expiresAt.getTime() }, generation);
  request.sessionUser = user;
  return user;
}

/** The logged-in user, or a 401. */
export async function requireUser(ctx: AppContext, request: FastifyRequest): Promise<SessionUser> {
  const user = await currentUser(ctx, request);
  if (!user) throw unauthorized();
  return user;
}
