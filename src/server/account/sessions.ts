import { and, desc, eq, gt } from 'drizzle-orm';
import { UAParser } from 'ua-parser-js';
import type { AccountSession } from '../../shared/account';
import { endOtherSessions, forgetSessionsOf } from '../auth/session';
import { sessions } from '../db/schema/accounts';
import type { AppContext } from '../kernel/context';

/**
 * The browsers an account is signed in on (issue 33), named by each session's public id; the id in the cookie and
 * its hash never leave the server.
 */

/** "Chrome 120" and "Windows 10" from a User-Agent, or plain words when the parser does not know it. */
export function describeUserAgent(userAgent: string | null): { browser: string; os: string } {
  const parsed = UAParser(userAgent ?? '');
  const join = (name?: string, version?: string) => (name ? [name, version].filter(Boolean).join(' ') : null);
  return {
    browser: join(parsed.browser.name, parsed.browser.major) ?? 'Unknown browser',
    os: join(parsed.os.name, parsed.os.version) ?? 'Unknown system',
  };
}

export async function listSessions(
  ctx: AppContext,
  userId: string,
  currentIdHash: string | null,
): Promise<AccountSession[]> {
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, ctx.clock.now())))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
  return rows.map((row) => ({
    id: row.publicId,
    ...describeUserAgent(row.userAgent),
    country: row.country,
    signedInAt: row.createdAt.toISOString(),
    lastUsedAt: (row.lastUsedAt ?? row.createdAt).toISOString(),
    current: row.idHash === currentIdHash,
  }));
}

/** Ends one of the account's sessions by its public id; false when the account has no such session. */
export async function endSessionByPublicId(
  ctx: AppContext,
  userId: string,
  publicId: string,
): Promise<boolean> {
  const ended = await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId)))
    .returning({ idHash: sessions.idHash });
  const [row] = ended;
  if (row) ctx.caches.sessions.delete(row.idHash);
  return Boolean(row);
}

/** "Sign out everywhere else": every session of the account but the one asking. */
export async function endOthers(ctx: AppContext, userId: string, currentIdHash: string): Promise<number> {
  const count = await endOtherSessions(ctx.db, userId, currentIdHash);
  forgetSessionsOf(ctx, userId);
  return count;
}
