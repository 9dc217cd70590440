import { eq } from 'drizzle-orm';
import { ACCOUNT_MESSAGES } from '../../shared/account';
import { AUTH_MESSAGES, normaliseEmail } from '../../shared/auth';
import { findUserByEmail } from '../auth/accounts';
import { checkCode, consumeCode, generateCode, reserveSend, storeCode } from '../auth/codes';
import { forgetSessionsOf } from '../auth/session';
import { accountAddresses, users } from '../db/schema/accounts';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { enqueueMail } from '../mail/outbox';
import { emailChangeCodeEmail, emailChangedNotice, emailTakenNotice } from './emails';

/**
 * Moving an account to another email address (issue 33). The new address gets a 6-digit code under the reset
 * code's rules and quotas, bound to the account that asked; an address that already has an account gets a notice
 * instead, and the asker sees the same answer either way, so the form cannot tell which addresses are registered.
 * Licenses, downloads and invoices follow users.email, so confirming moves them all; documents already issued
 * keep the address they were issued to.
 */

const PURPOSE = 'email-change';

export const invalidEmailCode = () =>
  new DomainError('invalid_code', AUTH_MESSAGES.verifyFailed, {
    fieldErrors: { code: AUTH_MESSAGES.verifyFailed },
  });

const contactUrl = (ctx: AppContext) => `${ctx.config.publicUrl}/Contact`;

export async function requestEmailChange(
  ctx: AppContext,
  user: { id: string; email: string },
  typedEmail: string,
): Promise<void> {
  const email = normaliseEmail(typedEmail);
  if (email === normaliseEmail(user.email)) {
    throw new DomainError('validation_error', ACCOUNT_MESSAGES.emailSame, {
      fieldErrors: { email: ACCOUNT_MESSAGES.emailSame },
    });
  }
  await ctx.db.transaction(async (tx) => {
    await reserveSend(tx, ctx, email, PURPOSE);
    const owner = await findUserByEmail(tx, email);
    if (owner) {
      await enqueueMail(ctx, tx, {
        to: owner.email,
        ...emailTakenNotice(contactUrl(ctx)),
        kind: 'email-taken',
      });
      return;
    }
    const code = generateCode(PURPOSE);
    await storeCode(tx, ctx, { email, purpose: PURPOSE, userId: user.id, code });
    // The account's address history: erasure finds the mail and codes of both addresses by it, whether or not the
    // move is ever confirmed.
    await tx
      .insert(accountAddresses)
      .values([
        { userId: user.id, email: normaliseEmail(user.email) },
        { userId: user.id, email },
      ])
      .onConflictDoNothing();
    await enqueueMail(ctx, tx, {
      to: typedEmail.trim(),
      ...emailChangeCodeEmail(code),
      kind: 'email-change-code',
    });
  });
}

/**
 * Moves the account to the address the code was sent to, using the code up in the same transaction and telling
 * the old address. A wrong, reused or expired code, or an address taken since, changes nothing.
 */
export async function confirmEmailChange(
  ctx: AppContext,
  user: { id: string; email: string },
  input: { email: string; code: string },
): Promise<string> {
  const email = normaliseEmail(input.email);
  const matched = await checkCode(ctx, { email, purpose: PURPOSE, userId: user.id, code: input.code });
  if (!matched) throw invalidEmailCode();
  const now = ctx.clock.now();
  const moved = await ctx.db.transaction(async (tx) => {
    if (!(await consumeCode(tx, ctx, matched))) return null;
    if (await findUserByEmail(tx, email)) return null;
    const [current] = await tx.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    if (!current) return null;
    await tx.update(users).set({ email: input.email.trim() }).where(eq(users.id, user.id));
    const notice = emailChangedNotice(now, contactUrl(ctx));
    await enqueueMail(ctx, tx, { to: current.email, ...notice, kind: 'email-changed' });
    return input.email.trim();
  });
  if (!moved) throw invalidEmailCode();
  forgetSessionsOf(ctx, user.id);
  return moved;
}
