/**
 * "Delete my account" (DPDP Act s. 12(3)): one transaction that erases the account's personal data and keeps what
 * the law keeps. The users row stays, emptied, so orders, invoices and credit notes keep their numbers, totals and
 * links; tax documents keep the name and address they were issued to for 72 months (CGST Act s. 36), without the
 * email address. Sessions, passkeys, codes, devices, messages and mail go; licenses are revoked, so every tool
 * stops; the address gets one confirmation, whose outbox row is deleted as soon as it is sent. Signing up again
 * later with the same address makes a new, empty account.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { normaliseEmail } from '../../shared/auth';
import { DATA_RIGHTS_MESSAGES } from '../../shared/privacy';
import { withdrawAllConsents } from '../auth/consents';
import { endAllSessions, forgetSessionsOf } from '../auth/session';
import type { AppContext } from '../context';
import type { Tx } from '../db';
import {
  checkoutStarts,
  contactMessages,
  downloadTokens,
  licenseActivations,
  licenses,
  operators,
  passkeys,
  purchases,
  users,
  verificationCodes,
  webauthnChallenges,
} from '../db/schema';
import { DomainError } from '../domain-error';
import { forgetLicenses } from '../licenses/memory';
import { enqueueMail } from '../mail/outbox';
import { type Actor, recordAudit } from '../operator/audit';
import { queueCustomerErased } from '../webhooks/events';
import { accountErasedEmail } from './emails';

/** The address an erased account keeps: unique (the id), and never deliverable (RFC 6761 reserves .invalid). */
export const erasedEmail = (userId: string) => `erased-${userId}@invalid`;

/** A PostgreSQL regular expression that matches `text` literally, for replacing an address inside JSON text. */
const literalPattern = (text: string) => text.replace(/[.^$*+?()[\]{}|\\-]/g, (char) => `\\${char}`);

/** Revokes every license the account holds, so the license API answers REVOKED; returns their ids. */
async function revokeLicenses(tx: Tx, userId: string, now: Date): Promise<string[]> {
  const owned = tx.select({ id: purchases.id }).from(purchases).where(eq(purchases.userId, userId));
  const all = await tx.select({ id: licenses.id }).from(licenses).where(inArray(licenses.purchaseId, owned));
  const ids = all.map((license) => license.id);
  if (ids.length === 0) return ids;
  await tx
    .update(licenses)
    .set({ status: 'revoked', statusChangedAt: now })
    .where(and(inArray(licenses.id, ids), sql`${licenses.status} <> 'revoked'`));
  await tx.delete(licenseActivations).where(inArray(licenseActivations.licenseId, ids));
  await tx.delete(downloadTokens).where(eq(downloadTokens.userId, userId));
  return ids;
}

/**
 * Mail to or about the address: everything queued for it (not yet sent: dropped; sent: its address and text go
 * now instead of after 90 days, an order keeping the line "Email sent" with its subject, as the retention job
 * does), and the firm's copies of the contact messages it sent.
 */
async function eraseMail(tx: Tx, email: string, messageIds: string[]): Promise<void> {
  const refs = messageIds.map((id) => `contact:${id}`);
  await tx.execute(sql`
    with gone as (
      delete from outbox
      where lower("to") = ${email} ${refs.length ? sql`or ref in ${refs}` : sql``}
      returning id, kind, subject, ref, status, sent_at)
    insert into order_events (order_id, kind, detail, created_at)
    select o.id, 'email-archived', jsonb_build_object('outboxId', gone.id, 'email', gone.kind,
             'subject', gone.subject), gone.sent_at
    from gone join orders o on gone.ref = 'order:' || o.id::text
    where gone.status = 'sent'`);
}

/** The address wherever else it was written down: the audit log (an operator's own account), rate-limit keys. */
async function eraseTraces(tx: Tx, userId: string, email: string, replacement: string): Promise<void> {
  const pattern = literalPattern(email);
  const scrub = (column: string, json = false) => {
    const name = sql.identifier(column);
    return json
      ? sql`${name} = regexp_replace(${name}::text, ${pattern}, ${replacement}, 'gi')::jsonb`
      : sql`${name} = regexp_replace(${name}, ${pattern}, ${replacement}, 'gi')`;
  };
  await tx.execute(sql`
    update audit_log set ${scrub('actor')}, ${scrub('target')}, ${scrub('before', true)}, ${scrub('after', true)}
    where actor ~* ${pattern} or target ~* ${pattern} or before::text ~* ${pattern} or after::text ~* ${pattern}`);
  await tx.execute(sql`
    update order_events set ${scrub('detail', true)}
    where order_id in (select id from orders where user_id = ${userId}) and detail::text ~* ${pattern}`);
  // Issued documents keep the name and address the law requires; the address they were emailed to goes.
  for (const table of ['invoices', 'credit_notes']) {
    await tx.execute(
      sql`update ${sql.identifier(table)} set document = jsonb_set(document, '{buyer,email}', '""')
          where user_id = ${userId}`,
    );
  }
  await tx.execute(sql`delete from rate_limit_hits where right(key, ${email.length + 1}) = ${`:${email}`}`);
}

export type ErasedAccount = { erasedAt: Date; email: string };

/**
 * Erases the account in one transaction; `actor` is who asked (the buyer themselves, or an operator acting on a
 * written request), recorded in Activity without any personal data.
 */
export async function eraseAccount(ctx: AppContext, userId: string, actor: Actor): Promise<ErasedAccount> {
  const now = ctx.clock.now();
  const { erased, licenseIds } = await ctx.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw new DomainError('not_found', 'No such account.');
    if (user.erasedAt) throw new DomainError('refused', DATA_RIGHTS_MESSAGES.alreadyErased);
    const [operator] = await tx.select().from(operators).where(eq(operators.userId, userId));
    if (operator) throw new DomainError('refused', DATA_RIGHTS_MESSAGES.operatorAccount);

    const email = normaliseEmail(user.email);
    const replacement = erasedEmail(userId);
    const messages = await tx
      .delete(contactMessages)
      .where(sql`lower(${contactMessages.email}) = ${email}`)
      .returning({ id: contactMessages.id });
    await eraseMail(
      tx,
      email,
      messages.map((message) => message.id),
    );
    await tx.delete(verificationCodes).where(sql`lower(${verificationCodes.email}) = ${email}`);
    await endAllSessions(tx, userId);
    await tx.delete(passkeys).where(eq(passkeys.userId, userId));
    await tx.delete(checkoutStarts).where(eq(checkoutStarts.userId, userId));
    await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
    const revoked = await revokeLicenses(tx, userId, now);
    await eraseTraces(tx, userId, email, replacement);
    await withdrawAllConsents(tx, userId, now);
    await queueCustomerErased(tx, userId, now);
    await tx
      .update(users)
      .set({
        name: '',
        email: replacement,
        phone: '',
        passwordHash: '!erased',
        releaseEmails: false,
        trialEmails: false,
        checkoutReminderEmails: false,
        erasedAt: now,
      })
      .where(and(eq(users.id, userId), isNull(users.erasedAt)));
    await recordAudit(tx, actor, { action: 'account.erase', target: `user:${userId}` });
    // Queued after the drop above, so it is the one email left for the address; its row goes once it is sent.
    await enqueueMail(ctx, tx, {
      to: user.email,
      ...accountErasedEmail(now),
      kind: 'account-erased',
      deleteWhenSent: true,
    });
    return { erased: { erasedAt: now, email: user.email }, licenseIds: revoked };
  });
  forgetSessionsOf(ctx, userId);
  for (const licenseId of licenseIds) forgetLicenses(ctx, licenseId);
  ctx.mailQueued.notify();
  return erased;
}
