/**
 * "Delete my account" (DPDP Act s. 12(3)): one transaction that erases the account's personal data and keeps what
 * the law keeps. The users row stays, emptied, so orders, invoices and credit notes keep their numbers, totals and
 * links; tax documents keep the name and address they were issued to for 72 months (CGST Act s. 36), without the
 * email address. Sessions, passkeys, codes, devices, messages and mail go; licenses are revoked, so every tool
 * stops; the address gets one confirmation, whose outbox row is deleted as soon as it is sent. Signing up again
 * later with the same address makes a new, empty account.
 */
import { eq } from 'drizzle-orm';
import { DATA_RIGHTS_MESSAGES } from '../../shared/privacy';
import { accountErasedEmail } from '../account/emails';
import { addressesOf, emptyAccount, erasedEmail, eraseSignIns } from '../account/erasure';
import { forgetSessionsOf } from '../auth/session';
import { deleteDownloadLinksOf } from '../catalogue/downloads';
import { forgetCheckoutStartsOf } from '../checkout/recovery';
import { eraseMessagesFrom } from '../contact/messages';
import { users } from '../db/schema/accounts';
import { operators } from '../db/schema/operator';
import { forgetHitsOf } from '../http/rate-limit';
import { blankBuyerEmails } from '../invoices/issue';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { literalPattern } from '../kernel/patterns';
import { revokeLicensesHeldBy, teamsSeatedIn } from '../licenses/erasure';
import { forgetLicenses } from '../licenses/memory';
import { eraseMailFiles, eraseMailTo, redactMailAbout, redactor } from '../mail/erasure';
import { enqueueMail } from '../mail/outbox';
import { type Actor, recordAudit, redactAuditLog } from '../operator/audit';
import { archiveOrderEmails, redactOrderEvents } from '../orders/events';
import { dropInvitations } from '../teams/teams';
import { queueCustomerErased } from '../webhooks/events';

export type ErasedAccount = { erasedAt: Date; email: string };

/**
 * Erases the account in one transaction; `actor` is who asked (the buyer themselves, or an operator acting on a
 * written request), recorded in Activity without any personal data.
 */
export async function eraseAccount(ctx: AppContext, userId: string, actor: Actor): Promise<ErasedAccount> {
  const now = ctx.clock.now();
  const { erased, licenseIds, emails, mailIds, redacted } = await ctx.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw new DomainError('not_found', 'No such account.');
    if (user.erasedAt) throw new DomainError('refused', DATA_RIGHTS_MESSAGES.alreadyErased);
    const [operator] = await tx.select().from(operators).where(eq(operators.userId, userId));
    if (operator) throw new DomainError('refused', DATA_RIGHTS_MESSAGES.operatorAccount);

    const emails = await addressesOf(tx, userId, user.email);
    const replacement = erasedEmail(userId);
    const messageIds = await eraseMessagesFrom(tx, emails);
    const mail = await eraseMailTo(
      tx,
      emails,
      messageIds.map((id) => `contact:${id}`),
    );
    // An order's email leaves a line in its history, as the retention job leaves it: the fact stays.
    await archiveOrderEmails(tx, mail.sent);
    await eraseSignIns(tx, userId, emails);
    await forgetCheckoutStartsOf(tx, userId);
    await deleteDownloadLinksOf(tx, userId);
    const revoked = await revokeLicensesHeldBy(tx, userId, now);
    // Mail of the teams it held or sat in may speak of the account to others ("X joined your team").
    const teams = [...new Set([...revoked, ...(await teamsSeatedIn(tx, userId))])];
    const redacted = await redactMailAbout(
      ctx,
      tx,
      teams.map((id) => `license:${id}`),
      redactor(user.name, [...new Set([...emails, user.email])]),
    );
    await dropInvitations(tx, { teamLicenseIds: revoked, emails });
    // The addresses wherever else they were written down: the audit log, order events, rate-limit keys.
    for (const email of emails) {
      const pattern = literalPattern(email);
      await redactAuditLog(tx, pattern, replacement);
      await redactOrderEvents(tx, userId, pattern, replacement);
      await forgetHitsOf(tx, email);
    }
    await blankBuyerEmails(tx, userId);
    await queueCustomerErased(tx, userId, now);
    await emptyAccount(ctx, tx, { userId, emails }, now);
    await recordAudit(tx, actor, { action: 'account.erase', target: `user:${userId}` });
    // Queued after the drop above, so it is the one email left for the address; its row goes once it is sent.
    await enqueueMail(ctx, tx, {
      to: user.email,
      ...accountErasedEmail(now),
      kind: 'account-erased',
      deleteWhenSent: true,
    });
    return {
      erased: { erasedAt: now, email: user.email },
      licenseIds: revoked,
      emails,
      mailIds: mail.ids,
      redacted,
    };
  });
  await eraseMailFiles(ctx, emails, new Set(mailIds), redacted);
  forgetSessionsOf(ctx, userId);
  for (const licenseId of licenseIds) forgetLicenses(ctx, licenseId);
  ctx.mailQueued.notify();
  return erased;
}
