import { and, eq, isNull } from 'drizzle-orm';
import type { LicenseCredentials } from '../../shared/licenses';
import { TRIAL_MESSAGES } from '../../shared/trials';
import { addressHadTrial, claimTrialFor } from '../account/trial-claims';
import { findActiveTool, forgetOwnedTools, type ToolRow } from '../catalogue/catalogue';
import { createDownloadToken } from '../catalogue/downloads';
import { editionsOf, trialEditionOf } from '../catalogue/editions';
import type { Tx } from '../db';
import { isUniqueViolation } from '../db/driver-errors';
import { users } from '../db/schema/accounts';
import { licenses } from '../db/schema/licenses';
import { purchases } from '../db/schema/orders';
import { trials } from '../db/schema/trials';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { insertLicense, makeTrialBought } from '../licenses/create';
import { renderTrialDeliveryEmail } from '../licenses/delivery-email';
import { heldPurchaseOf } from '../licenses/lookup';
import { revealSecret } from '../licenses/secrets-at-rest';
import { SEAT_HOLDING } from '../licenses/team-seats';
import { enqueueMail } from '../mail/outbox';
import { queueTrialEvent } from '../webhooks/events';

/**
 * Free trials (docs/decisions/035-trials.md). A trial is a license with status `trial` and an end date, owned
 * through a `trials` row instead of a purchase; buying the tool turns that same license into the paid one.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Where a trial's emails send the buyer to buy. */
export const buyUrl = (ctx: Pick<AppContext, 'config'>) => `${ctx.config.publicUrl}/utility-tools`;

/** A moment as the emails say it: "26 November 2026, 9:30 pm" in India time. */
export const indiaTime = (when: Date) =>
  new Intl.DateTimeFormat('en-IN', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Asia/Kolkata',
  }).format(when);

/** The tool a trial may be started for, or why not (no such tool, coming soon, no trial). */
async function trialTool(ctx: AppContext, toolId: string): Promise<ToolRow> {
  const tool = await findActiveTool(ctx.db, toolId);
  if (!tool) throw new DomainError('not_found', 'This tool is not available.');
  if (tool.comingSoon) throw new DomainError('invalid', TRIAL_MESSAGES.comingSoon);
  if (tool.trialDays <= 0) throw new DomainError('not_found', TRIAL_MESSAGES.noTrial);
  return tool;
}

/**
 * One trial per account and tool, ever, one per address and tool (also after an erased account: account/trial-claims.ts),
 * and none of a tool the account owns or holds a seat of (a team member's license is on the owner's purchase).
 */
async function assertMayTry(ctx: AppContext, tx: Tx, userId: string, toolId: string): Promise<void> {
  const [owned] = await tx
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.userId, userId), eq(purchases.toolId, toolId), isNull(purchases.refundedAt)))
    .limit(1);
  if (owned) throw new DomainError('refused', TRIAL_MESSAGES.alreadyOwned);
  if (await heldPurchaseOf(tx, { userId, toolId }, SEAT_HOLDING))
    throw new DomainError('refused', TRIAL_MESSAGES.coveredBySeat);
  const [earlier] = await tx
    .select({ id: trials.id })
    .from(trials)
    .where(and(eq(trials.userId, userId), eq(trials.toolId, toolId)))
    .limit(1);
  if (earlier) throw new DomainError('refused', TRIAL_MESSAGES.alreadyTrialled);
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (user && (await addressHadTrial(tx, ctx.dataSecrets, toolId, user.email)))
    throw new DomainError('refused', TRIAL_MESSAGES.alreadyTrialled);
}

/**
 * Starts a signed-in visitor's free trial of a tool: a license with status `trial` ending `trialDays` from now
 * (the server's clock), its trial row and the delivery email with the key or credentials, in one transaction.
 * A second trial of the same tool, or a trial of an owned tool, is refused (409); two racing starts meet the
 * unique (user, tool) index and the loser is refused alike.
 */
export async function startTrial(
  ctx: AppContext,
  userId: string,
  toolId: string,
): Promise<{ trialId: string; licenseId: string; expiresAt: Date; days: number }> {
  const tool = await trialTool(ctx, toolId);
  let started: { trialId: string; licenseId: string; expiresAt: Date; days: number };
  try {
    started = await ctx.db.transaction(async (tx) => {
      await assertMayTry(ctx, tx, userId, tool.id);
      const now = ctx.clock.now();
      const expiresAt = new Date(now.getTime() + tool.trialDays * DAY_MS);
      // A tool with editions is tried as the edition its operator chose, else its top one.
      const editions = (await editionsOf(tx, [tool.id])).get(tool.id) ?? [];
      const license = await insertLicense(ctx, tx, tool.delivery, {
        holderId: userId,
        editionId: trialEditionOf(tool, editions)?.id ?? null,
        status: 'trial',
        expiresAt,
        statusChangedAt: now,
        createdAt: now,
      });
      const [trial] = await tx
        .insert(trials)
        .values({ userId, toolId: tool.id, licenseId: license.id, startedAt: now })
        .returning({ id: trials.id });
      if (!trial) throw new Error('trial insert returned no row');
      await queueTrialEvent(tx, 'trial.started', trial.id, now);
      await claimTrialFor(tx, ctx.dataSecrets, tool.id, await emailOf(tx, userId));
      await queueTrialDelivery(ctx, tx, {
        userId,
        tool,
        secret: license.secret,
        expiresAt,
        trialId: trial.id,
      });
      return { trialId: trial.id, licenseId: license.id, expiresAt, days: tool.trialDays };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('refused', TRIAL_MESSAGES.alreadyTrialled);
    throw error;
  }
  forgetOwnedTools(ctx, userId);
  return started;
}

async function emailOf(tx: Tx, userId: string): Promise<string> {
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`trial for a missing user ${userId}`);
  return user.email;
}

async function queueTrialDelivery(
  ctx: AppContext,
  tx: Tx,
  parts: { userId: string; tool: ToolRow; secret: LicenseCredentials; expiresAt: Date; trialId: string },
): Promise<void> {
  const [user] = await tx
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, parts.userId));
  if (!user) throw new Error(`trial for a missing user ${parts.userId}`);
  const link = parts.tool.fileKey
    ? await createDownloadToken(ctx, tx, {
        trialId: parts.trialId,
        userId: parts.userId,
        toolId: parts.tool.id,
      })
    : undefined;
  const email = renderTrialDeliveryEmail({
    customerName: user.name,
    toolName: parts.tool.name,
    device: parts.tool.device,
    secret: parts.secret,
    downloadUrl: link?.url,
    trial: { endsAt: indiaTime(parts.expiresAt), buyUrl: buyUrl(ctx) },
  });
  await enqueueMail(
    ctx,
    tx,
    { to: user.email, ...email, kind: 'trial-delivery', ref: `trial:${parts.trialId}` },
    ctx.clock.now(),
  );
}

/**
 * Inside the fulfilment transaction of a purchase: when the buyer has a trial of the tool that was not bought
 * yet, that license becomes the paid one (same key or credentials, status active, no end, its machine stays
 * activated, the edition bought rather than the trial's) and its secret is returned for the delivery email. Undefined when there is no such trial, and the
 * purchase issues a new license as always.
 */
export async function convertTrial(
  ctx: AppContext,
  tx: Tx,
  purchase: {
    id: string;
    userId: string;
    toolId: string;
    editionId: string | null;
    updatesUntil: Date | null;
  },
  now: Date,
): Promise<LicenseCredentials | undefined> {
  const [trial] = await tx
    .select({ id: trials.id, license: licenses })
    .from(trials)
    .innerJoin(licenses, eq(licenses.id, trials.licenseId))
    .where(
      and(
        eq(trials.userId, purchase.userId),
        eq(trials.toolId, purchase.toolId),
        isNull(trials.convertedAt),
        eq(licenses.status, 'trial'),
      ),
    )
    .limit(1)
    .for('update');
  if (!trial) return undefined;
  await makeTrialBought(
    tx,
    trial.license.id,
    { purchaseId: purchase.id, editionId: purchase.editionId, updatesUntil: purchase.updatesUntil },
    now,
  );
  await tx.update(trials).set({ convertedAt: now }).where(eq(trials.id, trial.id));
  await queueTrialEvent(tx, 'trial.converted', trial.id, now);
  return revealSecret(ctx.dataSecrets, trial.license);
}
