import { eq } from 'drizzle-orm';
import { ACCOUNT_MESSAGES } from '../../shared/account';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { endOtherSessions, forgetSessionsOf } from '../auth/session';
import { users } from '../db/schema/accounts';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { enqueueMail } from '../mail/outbox';
import { passwordChangedNotice } from './emails';

export const PASSWORD_TRIES_PER_ACCOUNT = 10;
const PASSWORD_TRIES_WINDOW_MS = 15 * 60 * 1000;

export const wrongCurrentPassword = () =>
  new DomainError('wrong_password', ACCOUNT_MESSAGES.currentPasswordWrong, {
    fieldErrors: { currentPassword: ACCOUNT_MESSAGES.currentPasswordWrong },
  });

/**
 * Changes the password of a signed-in account: the current one must be right (wrong guesses share a budget of 10
 * per 15 minutes, like logins), and in one transaction the hash changes, every other session ends and the owner is
 * told by email. The session asking stays signed in.
 */
export async function changePassword(
  ctx: AppContext,
  input: { userId: string; sessionIdHash: string; currentPassword: string; password: string },
): Promise<void> {
  const budget = await ctx.limiter.reserve({
    key: `password-change:${input.userId}`,
    windowMs: PASSWORD_TRIES_WINDOW_MS,
    limit: PASSWORD_TRIES_PER_ACCOUNT,
    message: ACCOUNT_MESSAGES.tooManyPasswordTries,
  });
  const [user] = await ctx.db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, input.userId));
  if (!user || !(await verifyPassword(input.currentPassword, user.passwordHash, ctx.config.passwordHashCost)))
    throw wrongCurrentPassword();
  await budget.refund();
  const passwordHash = await hashPassword(input.password, ctx.config.passwordHashCost);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, passwordChangedAt: now }).where(eq(users.id, input.userId));
    await endOtherSessions(tx, input.userId, input.sessionIdHash);
    const notice = passwordChangedNotice(now, `${ctx.config.publicUrl}/Contact`);
    await enqueueMail(ctx, tx, { to: user.email, ...notice, kind: 'password-changed' });
  });
  forgetSessionsOf(ctx, input.userId);
}
