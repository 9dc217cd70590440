import { and, count, desc, eq, gt, inArray, isNull, type SQL } from 'drizzle-orm';
import type { AdminToolTrials, ExtendTrial } from '../../shared/dashboard';
import type { TrialFigures } from '../../shared/trials';
import type { DbOrTx, Tx } from '../db';
import { users } from '../db/schema/accounts';
import { licenses } from '../db/schema/licenses';
import { trials } from '../db/schema/trials';
import { findByTypedId } from '../db/typed-id';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { LICENSE_KEY_PATTERN, setTrialEnd } from '../licenses/create';
import { forgetLicenses } from '../licenses/memory';
import { licenseKeyHashes } from '../licenses/secrets-at-rest';
import { type Actor, actorName, recordAudit } from '../operator/audit';
import { DAY_MS } from './trials';

/**
 * The operator's side of trials (dashboard and command line): the figures, and extending or ending one trial.
 * Each change writes its audit entry in its transaction (decision 033); the license's new end reaches every
 * instance's memory through the change feed (the trigger announces `expires_at`).
 */

/** A trial by its id (or the start of it) or by its license key, locked with its license for the change. */
async function lockedTrial(ctx: AppContext, tx: Tx, typed: string) {
  const key = typed.trim().toUpperCase();
  const byKey: SQL | undefined = LICENSE_KEY_PATTERN.test(key)
    ? inArray(licenses.licenseKeyHash, licenseKeyHashes(ctx.dataSecrets, key))
    : undefined;
  return findByTypedId({
    idColumn: trials.id,
    typed,
    noun: 'trial',
    listCommand: 'the dashboard’s tool page',
    alternative: byKey,
    select: (where) =>
      tx
        .select({ trial: trials, license: licenses })
        .from(trials)
        .innerJoin(licenses, eq(licenses.id, trials.licenseId))
        .where(where)
        .limit(2)
        .for('update'),
  });
}

function assertRunningOrEnded(found: { trial: { convertedAt: Date | null } }): void {
  if (found.trial.convertedAt)
    throw new DomainError('refused', 'This trial was bought; it has no end any more.');
}

/**
 * Moves a trial's end `days` later (from its end, or from now when it has already ended), so the buyer gets that
 * much more time; the reminders are sent again before the new end. `days` is `extendTrialSchema`'s parsed output:
 * each adapter parses its input with it once.
 */
export async function extendTrial(
  ctx: AppContext,
  typed: string,
  { days }: ExtendTrial,
  actor: Actor,
): Promise<{ trialId: string; expiresAt: Date }> {
  const extended = await ctx.db.transaction(async (tx) => {
    const found = await lockedTrial(ctx, tx, typed);
    assertRunningOrEnded(found);
    const now = ctx.clock.now();
    const before = found.license.expiresAt ?? now;
    const from = Math.max(before.getTime(), now.getTime());
    const expiresAt = new Date(from + days * DAY_MS);
    await setTrialEnd(tx, found.license.id, expiresAt);
    await tx
      .update(trials)
      .set({ reminderSentAt: null, endNoticeSentAt: null, endedAt: null, endedBy: null })
      .where(eq(trials.id, found.trial.id));
    await recordAudit(tx, actor, {
      action: 'trial.extend',
      target: `trial:${found.trial.id}`,
      before: { expiresAt: before.toISOString() },
      after: { expiresAt: expiresAt.toISOString(), days },
    });
    return { trialId: found.trial.id, licenseId: found.license.id, expiresAt };
  });
  // This instance at once; the others through the change feed.
  forgetLicenses(ctx, extended.licenseId);
  return { trialId: extended.trialId, expiresAt: extended.expiresAt };
}

/** Ends a trial now: the tool answers EXPIRED from this moment, and the end notice goes out. */
export async function endTrial(
  ctx: AppContext,
  typed: string,
  actor: Actor,
): Promise<{ trialId: string; endedAt: Date }> {
  const ended = await ctx.db.transaction(async (tx) => {
    const found = await lockedTrial(ctx, tx, typed);
    assertRunningOrEnded(found);
    const now = ctx.clock.now();
    const before = found.license.expiresAt;
    if (before && before.getTime() <= now.getTime())
      throw new DomainError('refused', 'This trial has already ended.');
    await setTrialEnd(tx, found.license.id, now);
    await tx
      .update(trials)
      .set({ endedAt: now, endedBy: actorName(actor) })
      .where(eq(trials.id, found.trial.id));
    await recordAudit(tx, actor, {
      action: 'trial.end',
      target: `trial:${found.trial.id}`,
      before: { expiresAt: before?.toISOString() ?? null },
      after: { expiresAt: now.toISOString() },
    });
    return { trialId: found.trial.id, licenseId: found.license.id, endedAt: now };
  });
  forgetLicenses(ctx, ended.licenseId);
  return { trialId: ended.trialId, endedAt: ended.endedAt };
}

/** Trials started, running, bought and the share bought: the whole shop's, or one tool's. */
export async function trialFigures(db: DbOrTx, now: Date, toolId?: string): Promise<TrialFigures> {
  const ofTool = toolId ? eq(trials.toolId, toolId) : undefined;
  const [[totals], [open]] = await Promise.all([
    db
      .select({ started: count(), converted: count(trials.convertedAt) })
      .from(trials)
      .where(ofTool),
    // Running: a license still in trial whose end is ahead, found through the trials' end index rather than by
    // joining every trial ever started to its license.
    db
      .select({ running: count() })
      .from(trials)
      .innerJoin(licenses, eq(licenses.id, trials.licenseId))
      .where(
        and(ofTool, isNull(trials.convertedAt), eq(licenses.status, 'trial'), gt(licenses.expiresAt, now)),
      ),
  ]);
  const started = Number(totals?.started ?? 0);
  const converted = Number(totals?.converted ?? 0);
  return {
    started,
    running: Number(open?.running ?? 0),
    converted,
    conversionRate: started === 0 ? null : converted / started,
  };
}

const TOOL_PAGE_TRIALS = 50;

/** A tool's trial figures and its newest trials, for the operator's tool page. */
export async function trialsOfTool(ctx: AppContext, toolId: string): Promise<AdminToolTrials> {
  const now = ctx.clock.now();
  const [figures, rows] = await Promise.all([
    trialFigures(ctx.db, now, toolId),
    ctx.db
      .select({
        id: trials.id,
        email: users.email,
        startedAt: trials.startedAt,
        convertedAt: trials.convertedAt,
        expiresAt: licenses.expiresAt,
      })
      .from(trials)
      .innerJoin(licenses, eq(licenses.id, trials.licenseId))
      .innerJoin(users, eq(users.id, trials.userId))
      .where(eq(trials.toolId, toolId))
      .orderBy(desc(trials.startedAt))
      .limit(TOOL_PAGE_TRIALS),
  ]);
  return {
    figures,
    trials: rows.map((row) => ({
      id: row.id,
      customerEmail: row.email,
      startedAt: row.startedAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
      state: row.convertedAt
        ? 'bought'
        : row.expiresAt && row.expiresAt.getTime() > now.getTime()
          ? 'running'
          : 'ended',
    })),
  };
}
