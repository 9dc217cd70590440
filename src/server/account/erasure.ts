/**
 * "Delete my account" (DPDP Act s. 12(3)): one transaction that erases the account's personal data and keeps what
 * the law keeps. The users row stays, emptied, so orders, invoices and credit notes keep their numbers, totals and
 * links; tax documents keep the name and address they were issued to for 72 months (CGST Act s. 36), without the
 * email address. Sessions, passkeys, codes, devices, messages and mail go; licenses are revoked, so every tool
 * stops; the address gets one confirmation, whose outbox row is deleted as soon as it is sent. Signing up again
 * later with the same address makes a new, empty account.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { normaliseEmail } from '../../shared/auth';
import { DATA_RIGHTS_MESSAGES } from '../../shared/privacy';
import { withdrawAllConsents } from '../auth/consents';
import { endAllSessions, forgetSessionsOf } from '../auth/session';
import type { Tx } from '../db';
import {
  accountAddresses,
  passkeys,
  trialClaims,
  users,
  verificationCodes,
  webauthnChallenges,
} from '../db/schema/accounts';
import { checkoutStarts } from '../db/schema/checkout';
import { contactMessages } from '../db/schema/contact';
import { downloadTokens } from '../db/schema/downloads';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { operators } from '../db/schema/operator';
import { teamInvitations } from '../db/schema/teams';
import { trials } from '../db/schema/trials';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { forgetLicenses } from '../licenses/memory';
import { escapeHtml } from '../mail/layout';
import { enqueueMail, openMailBody, sealMailBody } from '../mail/outbox';
import { writeMailFiles } from '../mail/transport';
import { type Actor, recordAudit } from '../operator/audit';
import { queueCustomerErased } from '../webhooks/events';
import { accountErasedEmail } from './emails';
import { trialClaimHash } from './trial-claims';

/** The address an erased account keeps: unique (the id), and never deliverable (RFC 6761 reserves .invalid). */
export const erasedEmail = (userId: string) => `erased-${userId}@invalid`;

/** A PostgreSQL regular expression that matches `text` literally, for replacing an address inside JSON text. */
const literalPattern = (text: string) => text.replace(/[.^$*+?()[\]{}|\\-]/g, (char) => `\\${char}`);

/**
 * Revokes every license the account holds (bought, trial, or whatever else made it: found by its holder), so the
 * license API answers REVOKED; its machines (with their names and update-feed tokens) and download links go.
 * Returns the licenses' ids.
 */
async function revokeLicenses(tx: Tx, userId: string, now: Date): Promise<string[]> {
  const held = await tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.holderId, userId));
  // A team license ends with its owner, and so do its members' seats (decision 051); an erased member's own seat
  // is revoked like any license it holds, which gives it back to the team.
  const seated =
    held.length === 0
      ? []
      : await tx
          .select({ id: licenses.id })
          .from(licenses)
          .where(
            inArray(
              licenses.teamLicenseId,
              held.map((license) => license.id),
            ),
          );
  const ids = [...held, ...seated].map((license) => license.id);
  await tx.delete(downloadTokens).where(eq(downloadTokens.userId, userId));
  if (ids.length === 0) return ids;
  // The owner's pending invitations name other people's addresses: they go with the team.
  await tx.delete(teamInvitations).where(inArray(teamInvitations.teamLicenseId, ids));
  await tx
    .update(licenses)
    .set({ status: 'revoked', statusChangedAt: now })
    .where(and(inArray(licenses.id, ids), sql`${licenses.status} <> 'revoked'`));
  await tx.delete(licenseActivations).where(inArray(licenseActivations.licenseId, ids));
  return ids;
}

/**
 * Every address the account used or asked to move to (normalised): its history (account_addresses) and the one it
 * has now.
 */
async function addressesOf(tx: Tx, userId: string, current: string): Promise<string[]> {
  const rows = await tx
    .select({ email: accountAddresses.email })
    .from(accountAddresses)
    .where(eq(accountAddresses.userId, userId));
  return [...new Set([normaliseEmail(current), ...rows.map((row) => normaliseEmail(row.email))])];
}

/**
 * Keeps, for the one-trial-per-person rule only, a keyed hash of each address and tool the account had a trial of
 * (trial-claims.ts); the trial rows themselves keep only the account's id.
 */
async function keepTrialClaims(ctx: AppContext, tx: Tx, userId: string, emails: string[]): Promise<void> {
  const tried = await tx.select({ toolId: trials.toolId }).from(trials).where(eq(trials.userId, userId));
  const values = tried.flatMap(({ toolId }) =>
    emails.map((email) => ({ claimHash: trialClaimHash(ctx.dataSecrets, toolId, email) })),
  );
  if (values.length) await tx.insert(trialClaims).values(values).onConflictDoNothing();
}

/**
 * Mail to or about the addresses: everything queued for them (not yet sent: dropped; sent: its address and text go
 * now instead of after 90 days, an order keeping the line "Email sent" with its subject, as the retention job
 * does), and the firm's copies of the contact messages they sent.
 */
async function eraseMail(tx: Tx, emails: string[], messageIds: string[]): Promise<number[]> {
  const refs = messageIds.map((id) => `contact:${id}`);
  const result = await tx.execute(sql`
    with gone as (
      delete from outbox
      where lower("to") in ${emails} ${refs.length ? sql`or ref in ${refs}` : sql``}
      returning id, kind, subject, ref, status, sent_at),
    archived as (
      insert into order_events (order_id, kind, detail, created_at)
      select o.id, 'email-archived', jsonb_build_object('outboxId', gone.id, 'email', gone.kind,
               'subject', gone.subject), gone.sent_at
      from gone join orders o on gone.ref = 'order:' || o.id::text
      where gone.status = 'sent')
    select id from gone`);
  return (result as unknown as { rows: Array<{ id: number | string }> }).rows.map((row) => Number(row.id));
}

/**
 * The addresses wherever else they were written down: the audit log (its subjects and details: an operator's own
 * account, a customer named by address), order events, rate-limit keys.
 */
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
  await tx.execute(sql`delete from rate_limit_hits where right(key, ${email.length + 1}) = ${`:${email}`}`);
}

/** What stands in a redacted email where the erased account's name or address stood. */
const ERASED_NAME = '[name erased]';
const ERASED_ADDRESS = '[address erased]';

/**
 * The causes (outbox `ref`) of mail that may speak of the account to someone else: the team mail of every license it
 * held, of the teams it had a seat in, and of its own teams' seats ("X joined your team", to the owner; "ask X", to a
 * member). `licenseIds` are the licenses revoked with the account (its own and its teams' seats).
 */
async function refsOfMailAbout(tx: Tx, userId: string, licenseIds: string[]): Promise<string[]> {
  const seats = await tx
    .select({ teamLicenseId: licenses.teamLicenseId })
    .from(licenses)
    .where(eq(licenses.holderId, userId));
  const ids = new Set([...licenseIds, ...seats.flatMap((seat) => seat.teamLicenseId ?? [])]);
  return [...ids].map((id) => `license:${id}`);
}

/** A text with the name (as typed, and as HTML writes it) and every address replaced, letter case ignored. */
function redactor(name: string, emails: string[]): (text: string) => string {
  const literal = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  const names = name.trim() ? [...new Set([name.trim(), escapeHtml(name.trim())])] : [];
  const patterns = [
    ...emails
      .flatMap((email) => [...new Set([email, escapeHtml(email)])])
      .map((email) => [literal(email), ERASED_ADDRESS] as const),
    ...names.map((each) => [literal(each), ERASED_NAME] as const),
  ];
  return (text) =>
    patterns.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
}

type RedactedMail = {
  id: number;
  to: string;
  subject: string;
  html: string;
  text: string;
  kind: string;
  createdAt: Date;
};

/**
 * Mail about the account sent to someone else (issue 63): the rows of `refs` whose subject or (sealed) body names
 * the account or one of its addresses keep their purpose and lose the name and addresses. Returns them redacted,
 * for the development mail folder.
 */
async function redactMailAbout(
  ctx: AppContext,
  tx: Tx,
  refs: string[],
  redact: (text: string) => string,
): Promise<RedactedMail[]> {
  if (refs.length === 0) return [];
  const rows = await tx.select().from(outbox).where(inArray(outbox.ref, refs));
  const redacted: RedactedMail[] = [];
  for (const row of rows) {
    const body = openMailBody(ctx.dataSecrets, row);
    const clean = { subject: redact(row.subject), html: redact(body.html), text: redact(body.text) };
    if (clean.subject === row.subject && clean.html === body.html && clean.text === body.text) continue;
    await tx
      .update(outbox)
      .set({ subject: clean.subject, ...sealMailBody(ctx.dataSecrets, clean) })
      .where(eq(outbox.id, row.id));
    redacted.push({ id: row.id, to: row.to, kind: row.kind, createdAt: row.createdAt, ...clean });
  }
  return redacted;
}

/** Issued documents keep the name and address the law requires; the address they were emailed to goes. */
async function blankDocumentEmails(tx: Tx, userId: string): Promise<void> {
  for (const table of ['invoices', 'credit_notes']) {
    await tx.execute(
      sql`update ${sql.identifier(table)} set document = jsonb_set(document, '{buyer,email}', '""')
          where user_id = ${userId}`,
    );
  }
}

/**
 * Development only (no SMTP): the files the mail folder holds for the addresses, or of the outbox rows erased (the
 * firm's copies of the account's contact messages), in DATA_DIR/mail, after the erasure committed; the files of
 * mail about the account to others are written again as redacted. A file that cannot be read is left (it is not one
 * of ours); the erasure stands either way.
 */
async function eraseMailFiles(
  ctx: AppContext,
  emails: string[],
  outboxIds: Set<number>,
  redacted: RedactedMail[],
): Promise<void> {
  if (ctx.config.smtpUrl) return;
  const directory = path.join(ctx.config.dataDir, 'mail');
  const names = await readdir(directory).catch(() => [] as string[]);
  const records = names.filter((name) => name.endsWith('.json'));
  const rewrite = new Map(redacted.map((mail) => [mail.id, mail]));
  for (const name of records) {
    const file = path.join(directory, name);
    try {
      const record = JSON.parse(await readFile(file, 'utf8')) as { id?: unknown; to?: unknown };
      const about = rewrite.get(Number(record.id));
      if (about) await writeMailFiles(ctx.config, about);
      const erased =
        outboxIds.has(Number(record.id)) || emails.includes(normaliseEmail(String(record.to ?? '')));
      if (!erased) continue;
      const base = name.slice(0, -'.json'.length);
      await rm(path.join(directory, `${base}.eml`), { force: true });
      await rm(file, { force: true });
    } catch {
      // A half-written or foreign file: not a record of the mail transport's.
    }
  }
}

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
    const messages = await tx
      .delete(contactMessages)
      .where(inArray(sql`lower(${contactMessages.email})`, emails))
      .returning({ id: contactMessages.id });
    const mailIds = await eraseMail(
      tx,
      emails,
      messages.map((message) => message.id),
    );
    await tx.delete(verificationCodes).where(inArray(sql`lower(${verificationCodes.email})`, emails));
    await endAllSessions(tx, userId);
    await tx.delete(passkeys).where(eq(passkeys.userId, userId));
    await tx.delete(checkoutStarts).where(eq(checkoutStarts.userId, userId));
    await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
    const revoked = await revokeLicenses(tx, userId, now);
    const redacted = await redactMailAbout(
      ctx,
      tx,
      await refsOfMailAbout(tx, userId, revoked),
      redactor(user.name, [...new Set([...emails, user.email])]),
    );
    // Invitations sent to the account's addresses, by anyone's team: the seat they held is free again.
    await tx.delete(teamInvitations).where(inArray(teamInvitations.email, emails));
    await keepTrialClaims(ctx, tx, userId, emails);
    for (const email of emails) await eraseTraces(tx, userId, email, replacement);
    await blankDocumentEmails(tx, userId);
    await tx.delete(accountAddresses).where(eq(accountAddresses.userId, userId));
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
        renewalReminderEmails: false,
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
    return { erased: { erasedAt: now, email: user.email }, licenseIds: revoked, emails, mailIds, redacted };
  });
  await eraseMailFiles(ctx, emails, new Set(mailIds), redacted);
  forgetSessionsOf(ctx, userId);
  for (const licenseId of licenseIds) forgetLicenses(ctx, licenseId);
  ctx.mailQueued.notify();
  return erased;
}
