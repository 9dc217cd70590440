import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { normaliseEmail } from '../../shared/auth';
import { withdrawAllConsents } from '../auth/consents';
import { endAllSessions } from '../auth/session';
import type { Tx } from '../db';
import {
  accountAddresses,
  passkeys,
  trialClaims,
  users,
  verificationCodes,
  webauthnChallenges,
} from '../db/schema/accounts';
import { trials } from '../db/schema/trials';
import type { AppContext } from '../kernel/context';
import { trialClaimHash } from './trial-claims';

/**
 * The account's own part of an erasure (data-rights/erasure.ts orchestrates the rest, feature by feature): its
 * sign-ins, passkeys, codes and address history go, a trial claim is kept per address and tool, and the users row
 * stays, emptied, so orders and tax documents keep their numbers and totals.
 */

/** The address an erased account keeps: unique (the id), and never deliverable (RFC 6761 reserves .invalid). */
export const erasedEmail = (userId: string) => `erased-${userId}@invalid`;

/** Every address the account used or asked to move to (normalised): its history and the one it has now. */
export async function addressesOf(tx: Tx, userId: string, current: string): Promise<string[]> {
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

/** Signs the account out everywhere and drops what it signs in with: sessions, passkeys, codes, challenges. */
export async function eraseSignIns(tx: Tx, userId: string, emails: string[]): Promise<void> {
  await tx.delete(verificationCodes).where(inArray(sql`lower(${verificationCodes.email})`, emails));
  await endAllSessions(tx, userId);
  await tx.delete(passkeys).where(eq(passkeys.userId, userId));
  await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
}

/** Empties the account itself, last: its addresses, consents and personal fields; the row stays. */
export async function emptyAccount(
  ctx: AppContext,
  tx: Tx,
  account: { userId: string; emails: string[] },
  now: Date,
): Promise<void> {
  const { userId, emails } = account;
  await keepTrialClaims(ctx, tx, userId, emails);
  await tx.delete(accountAddresses).where(eq(accountAddresses.userId, userId));
  await withdrawAllConsents(tx, userId, now);
  await tx
    .update(users)
    .set({
      name: '',
      email: erasedEmail(userId),
      phone: '',
      passwordHash: '!erased',
      releaseEmails: false,
      trialEmails: false,
      checkoutReminderEmails: false,
      renewalReminderEmails: false,
      erasedAt: now,
    })
    .where(and(eq(users.id, userId), isNull(users.erasedAt)));
}
