import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { DASHBOARD_MESSAGES } from '../../shared/dashboard';
import { currentUser, hashSessionId, SESSION_COOKIE } from '../auth/session';
import type { SessionUser } from '../auth/session-cache';
import { adminSessions, operators } from '../db/schema/operator';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { endAdminSession, touchAdminSession } from '../operator/admin-sessions';
import type { Actor } from '../operator/audit';

/**
 * A dashboard session sits on top of one site session (its row goes when the site session does: logout, a new
 * login, a password reset) and ends after 30 minutes without a dashboard request or 12 hours after the second
 * factor was passed, whichever comes first.
 */
export const DASHBOARD_IDLE_MS = 30 * 60 * 1000;
export const DASHBOARD_MAX_MS = 12 * 60 * 60 * 1000;
/** A request within this long of the last one does not write lastSeenAt again. */
const TOUCH_EVERY_MS = 30 * 1000;

export async function endDashboardSession(ctx: AppContext, sessionIdHash: string): Promise<void> {
  await endAdminSession(ctx.db, sessionIdHash);
}

export type OperatorState = {
  user: SessionUser;
  sessionIdHash: string;
  enrolled: boolean;
  /** The dashboard session is live (and was just kept alive). */
  verified: boolean;
};

/** The signed-in operator and where they stand with the second factor: 401 signed out, 403 not an operator. */
export async function operatorState(ctx: AppContext, request: FastifyRequest): Promise<OperatorState> {
  const user = await currentUser(ctx, request);
  const rawId = request.cookies[SESSION_COOKIE];
  if (!user || !rawId) throw new DomainError('unauthorized', 'Please log in to continue.');
  const sessionIdHash = hashSessionId(rawId);
  const [row] = await ctx.db
    .select({
      enrolledAt: operators.totpEnrolledAt,
      verifiedAt: adminSessions.verifiedAt,
      lastSeenAt: adminSessions.lastSeenAt,
    })
    .from(operators)
    .leftJoin(
      adminSessions,
      and(eq(adminSessions.userId, operators.userId), eq(adminSessions.sessionIdHash, sessionIdHash)),
    )
    .where(eq(operators.userId, user.id))
    .limit(1);
  if (!row) throw new DomainError('not_operator', DASHBOARD_MESSAGES.notOperator);
  const now = ctx.clock.now().getTime();
  let verified = false;
  if (row.verifiedAt && row.lastSeenAt) {
    const live =
      now - row.lastSeenAt.getTime() < DASHBOARD_IDLE_MS && now - row.verifiedAt.getTime() < DASHBOARD_MAX_MS;
    if (live) {
      verified = row.enrolledAt !== null;
      if (now - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
        await touchAdminSession(ctx.db, sessionIdHash, ctx.clock.now());
      }
    } else {
      await endDashboardSession(ctx, sessionIdHash);
    }
  }
  return { user, sessionIdHash, enrolled: row.enrolledAt !== null, verified };
}

export type DashboardOperator = {
  user: SessionUser;
  actor: Actor & { kind: 'operator' };
  sessionIdHash: string;
};

/** The guard of every dashboard data route: 401 signed out, 403 not an operator or second factor not passed. */
export async function requireDashboard(ctx: AppContext, request: FastifyRequest): Promise<DashboardOperator> {
  const state = await operatorState(ctx, request);
  if (!state.verified) {
    throw new DomainError('second_factor_required', DASHBOARD_MESSAGES.secondFactorRequired);
  }
  return {
    user: state.user,
    sessionIdHash: state.sessionIdHash,
    actor: { kind: 'operator', userId: state.user.id, email: state.user.email },
  };
}
