import { and, eq, gte, inArray, isNotNull, lte } from 'drizzle-orm';
import semver from 'semver';
import type { RolloutChange } from '../../shared/release-schemas';
import { SITE } from '../../shared/site';
import type { DbOrTx, Tx } from '../db';
import { tools } from '../db/schema/catalogue';
import { machineVersions, releaseMachines, releases } from '../db/schema/releases';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { DAY_MS } from '../kernel/operator-time';
import { renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';
import { type Actor, recordAudit } from '../operator/audit';
import { queueRolloutChanged } from '../webhooks/events';
import { forgetReleases } from './memory';
import { auditView, lockRelease, releaseOrNotFound } from './operator';
import type { ReleaseRow, ReleaseWithArtifacts } from './store';

/**
 * Staged rollouts (issue 66, decision 060): the operator widens, halts, resumes and completes a published release's
 * rollout, and the rollout watch halts one whose machines stay on the old version after downloading it. Each change
 * is audited and sent as `release.rollout_changed` in the transaction that makes it. Who is offered what is decided
 * by releases/offer.ts from the release's percentage and state.
 */

type NextRollout = Pick<ReleaseRow, 'rolloutPercent' | 'rolloutState'> & { rolloutResumedAt?: Date };

/** The rollout after a change, or the refusal that says why it cannot be made now. */
function nextRollout(release: ReleaseRow, change: RolloutChange, now: Date): NextRollout {
  const { version, rolloutPercent: percent, rolloutState: state } = release;
  if (release.state === 'draft') {
    throw new DomainError(
      'refused',
      `Release ${version} is a draft: publish it to start its rollout (releases publish … --rollout PERCENT).`,
    );
  }
  if (release.state === 'yanked') throw new DomainError('refused', `Release ${version} was yanked.`);
  switch (change.action) {
    case 'percent':
      if (state === 'halted') {
        throw new DomainError(
          'refused',
          `The rollout of ${version} is halted: resume it first, then widen it.`,
        );
      }
      if (state === 'complete') {
        throw new DomainError('refused', `The rollout of ${version} is complete: every machine gets it.`);
      }
      if (change.percent <= percent) {
        throw new DomainError(
          'refused',
          `The rollout of ${version} is at ${percent} %: it only widens (machines offered it keep it), so give more than ${percent}, or halt it.`,
        );
      }
      return {
        rolloutPercent: change.percent,
        rolloutState: change.percent === 100 ? 'complete' : 'rolling',
      };
    case 'halt':
      if (state === 'halted')
        throw new DomainError('refused', `The rollout of ${version} is already halted.`);
      return { rolloutPercent: percent, rolloutState: 'halted' };
    case 'resume':
      if (state !== 'halted') throw new DomainError('refused', `The rollout of ${version} is not halted.`);
      return {
        rolloutPercent: percent,
        rolloutState: percent === 100 ? 'complete' : 'rolling',
        rolloutResumedAt: now,
      };
    case 'complete':
      if (state === 'complete') {
        throw new DomainError('refused', `The rollout of ${version} is already complete.`);
      }
      return { rolloutPercent: 100, rolloutState: 'complete' };
  }
}

/** Writes a rollout change to a locked release with its audit row and its webhook. */
async function applyRollout(
  tx: Tx,
  actor: Actor,
  before: ReleaseRow,
  next: NextRollout,
  at: Date,
): Promise<ReleaseRow> {
  const [after] = await tx.update(releases).set(next).where(eq(releases.id, before.id)).returning();
  if (!after) throw new Error('release update returned no row');
  await recordAudit(tx, actor, {
    action: 'release.rollout',
    target: `release:${after.id}`,
    before: auditView(before),
    after: auditView(after),
  });
  await queueRolloutChanged(tx, after, at);
  return after;
}

/** The operator's change to a release's rollout (dashboard and `releases rollout`). */
export async function changeRollout(
  ctx: AppContext,
  releaseId: string,
  change: RolloutChange,
  actor: Actor,
): Promise<ReleaseWithArtifacts> {
  await ctx.db.transaction(async (tx) => {
    const before = await lockRelease(tx, releaseId);
    const now = ctx.clock.now();
    await applyRollout(tx, actor, before, nextRollout(before, change, now), now);
  });
  forgetReleases(ctx);
  return releaseOrNotFound(ctx.db, releaseId);
}

/** A machine that downloaded a release and is still seen on an older version this long after is stuck. */
export const STUCK_AFTER_MS = DAY_MS;
/** The watch judges a release once this many machines downloaded it at least `STUCK_AFTER_MS` ago. */
export const STUCK_MINIMUM_MACHINES = 5;
export const ROLLOUT_WATCH_INTERVAL_MS = 5 * 60 * 1000;

export type StuckFigures = { watched: number; stuck: number; percent: number };

/**
 * Of the machines that downloaded a release at least a day ago (since its last resume), how many are still seen on
 * an older version a day after their download; null while fewer than `STUCK_MINIMUM_MACHINES` count.
 */
export async function stuckFigures(db: DbOrTx, release: ReleaseRow, now: Date): Promise<StuckFigures | null> {
  const conditions = [
    eq(releaseMachines.releaseId, release.id),
    lte(releaseMachines.downloadedAt, new Date(now.getTime() - STUCK_AFTER_MS)),
  ];
  if (release.rolloutResumedAt) conditions.push(gte(releaseMachines.downloadedAt, release.rolloutResumedAt));
  const downloaded = await db
    .select({
      downloadedAt: releaseMachines.downloadedAt,
      version: machineVersions.version,
      seenAt: machineVersions.seenAt,
    })
    .from(releaseMachines)
    .leftJoin(machineVersions, eq(machineVersions.activationId, releaseMachines.activationId))
    .where(and(...conditions));
  if (downloaded.length < STUCK_MINIMUM_MACHINES) return null;
  const stuck = downloaded.filter(
    ({ downloadedAt, version, seenAt }) =>
      version !== null &&
      seenAt !== null &&
      downloadedAt !== null &&
      semver.lt(version, release.version) &&
      seenAt.getTime() - downloadedAt.getTime() >= STUCK_AFTER_MS,
  ).length;
  return { watched: downloaded.length, stuck, percent: (stuck / downloaded.length) * 100 };
}

const WATCH: Actor = { kind: 'system', job: 'rollout-watch' };

/**
 * Halts a release whose stuck share passed its threshold: in one transaction holding its row (another instance
 * running the watch skips it), only while its rollout is still going, so the operator is emailed and the webhook
 * sent once. Returns whether this call halted it.
 */
async function haltStuck(ctx: AppContext, releaseId: string, figures: StuckFigures): Promise<boolean> {
  const halted = await ctx.db.transaction(async (tx) => {
    const [release] = await tx
      .select()
      .from(releases)
      .where(and(eq(releases.id, releaseId), inArray(releases.rolloutState, ['rolling', 'complete'])))
      .for('update', { skipLocked: true });
    if (!release) return false;
    const now = ctx.clock.now();
    await applyRollout(
      tx,
      WATCH,
      release,
      { rolloutPercent: release.rolloutPercent, rolloutState: 'halted' },
      now,
    );
    const [tool] = await tx.select({ name: tools.name }).from(tools).where(eq(tools.id, release.toolId));
    const name = `${tool?.name ?? 'A tool'} ${release.version}`;
    await enqueueMail(
      ctx,
      tx,
      {
        to: ctx.config.mailToFirm ?? SITE.email,
        ...renderEmail({
          subject: `The rollout of ${name} was halted`,
          heading: `The rollout of ${name} was halted`,
          blocks: [
            {
              kind: 'paragraph',
              text: `${figures.stuck} of the ${figures.watched} machines that downloaded ${name} at least a day ago are still seen on an older version a day later: ${Math.round(figures.percent)} %, above the ${release.haltIfStuckPercent} % set when it was published. No further machine is offered it; machines that installed it keep it.`,
            },
            {
              kind: 'paragraph',
              text: `Look at its adoption with "npm run admin -- releases adoption ${release.toolId}" or on the dashboard's tool page. To offer it again: "npm run admin -- releases rollout ${release.id} --resume".`,
            },
          ],
        }),
        kind: 'rollout-halted',
        ref: `release:${release.id}`,
      },
      now,
    );
    return true;
  });
  if (halted) forgetReleases(ctx);
  return halted;
}

/**
 * The rollout watch (a background job on every instance): each release with a stuck threshold whose rollout is not
 * halted is judged, and halted when more than that share of its machines are stuck (`--halt-if-stuck`).
 */
export async function watchRollouts(ctx: AppContext): Promise<{ halted: string[] }> {
  const watched = await ctx.db
    .select()
    .from(releases)
    .where(
      and(
        eq(releases.state, 'published'),
        inArray(releases.rolloutState, ['rolling', 'complete']),
        isNotNull(releases.haltIfStuckPercent),
      ),
    );
  const halted: string[] = [];
  const now = ctx.clock.now();
  for (const release of watched) {
    const figures = await stuckFigures(ctx.db, release, now);
    if (
      figures &&
      figures.percent > (release.haltIfStuckPercent ?? 100) &&
      (await haltStuck(ctx, release.id, figures))
    )
      halted.push(release.id);
  }
  return { halted };
}
