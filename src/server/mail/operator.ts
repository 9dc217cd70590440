import { and, count, desc, eq, gt, type SQL } from 'drizzle-orm';
import { outbox } from '../db/schema/mail';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { formatOperatorTime } from '../kernel/operator-time';
import { type Actor, recordAudit } from '../operator/audit';
import { MAX_ATTEMPTS } from './worker';

/** The operator's view of the outbox: counts, what failed and why, and queuing failed mail again. */

/** An outbox row without its bodies: what the operator needs to judge a delivery. */
const summaryColumns = {
  id: outbox.id,
  to: outbox.to,
  subject: outbox.subject,
  kind: outbox.kind,
  ref: outbox.ref,
  status: outbox.status,
  attempts: outbox.attempts,
  nextAttemptAt: outbox.nextAttemptAt,
  lastError: outbox.lastError,
  createdAt: outbox.createdAt,
  sentAt: outbox.sentAt,
};

export type MailSummary = {
  [K in keyof typeof summaryColumns]: (typeof outbox.$inferSelect)[K];
};

/**
 * The outbox as the dashboard and the command line show it: counts by state (`retrying`: pending after a failed
 * attempt, of which `waitingForRetry` are waiting for their next try), and the newest `shown` failed and
 * retrying messages with why their last attempt failed.
 */
export async function outboxStatus(ctx: AppContext, shown = 20) {
  const retryingNow = and(eq(outbox.status, 'pending'), gt(outbox.attempts, 0));
  const newest = (where: SQL | undefined): Promise<MailSummary[]> =>
    ctx.db.select(summaryColumns).from(outbox).where(where).orderBy(desc(outbox.id)).limit(shown);
  const [byStatus, [retrying], [waiting], failedList, retryingList] = await Promise.all([
    ctx.db.select({ status: outbox.status, n: count() }).from(outbox).groupBy(outbox.status),
    ctx.db.select({ n: count() }).from(outbox).where(retryingNow),
    ctx.db
      .select({ n: count() })
      .from(outbox)
      .where(and(retryingNow, gt(outbox.nextAttemptAt, ctx.clock.now()))),
    newest(eq(outbox.status, 'failed')),
    newest(retryingNow),
  ]);
  const counts = { pending: 0, sent: 0, failed: 0, retrying: retrying?.n ?? 0 };
  for (const row of byStatus) counts[row.status] = row.n;
  return { counts, waitingForRetry: waiting?.n ?? 0, failed: failedList, retrying: retryingList };
}

/**
 * Queues one failed message again with a fresh set of retries. Refuses mail that was sent or is still queued:
 * retrying those would send twice or reset the worker's back-off. Its audit entry commits with the change.
 */
export async function retryMail(
  ctx: AppContext,
  id: number,
  actor: Actor,
): Promise<{ before: MailSummary; after: MailSummary }> {
  const [row] = await ctx.db.select(summaryColumns).from(outbox).where(eq(outbox.id, id));
  if (!row) throw new DomainError('not_found', `No mail with id ${id}.`);
  if (row.status === 'sent') {
    throw new DomainError(
      'refused',
      `Mail ${id} to ${row.to} was sent on ${formatOperatorTime(row.sentAt)}; nothing to retry.`,
    );
  }
  if (row.status === 'pending') {
    throw new DomainError(
      'refused',
      row.attempts === 0
        ? `Mail ${id} to ${row.to} is still queued, waiting for its first try; the server's mail worker sends it.`
        : `Mail ${id} to ${row.to} is still queued and being retried (${row.attempts} of ${MAX_ATTEMPTS} tries, next ${formatOperatorTime(row.nextAttemptAt)}); "mail retry" is for failed mail.`,
    );
  }
  const after = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(outbox)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: ctx.clock.now() })
      .where(and(eq(outbox.id, id), eq(outbox.status, 'failed')))
      .returning(summaryColumns);
    if (!updated)
      throw new DomainError('refused', `Mail ${id} changed while retrying; run "mail status" and try again.`);
    await recordAudit(tx, actor, {
      action: 'mail.retry',
      target: `mail:${id}`,
      before: { status: row.status, attempts: row.attempts },
      after: { status: updated.status, attempts: updated.attempts },
    });
    return updated;
  });
  ctx.mailQueued.notify();
  return { before: row, after };
}

/** Queues every failed message again, one audit entry naming them all; returns their ids, lowest first. */
export async function retryFailedMail(ctx: AppContext, actor: Actor): Promise<number[]> {
  return ctx.db.transaction(async (tx) => {
    const requeued = await tx
      .update(outbox)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: ctx.clock.now() })
      .where(eq(outbox.status, 'failed'))
      .returning({ id: outbox.id });
    const ids = requeued.map((row) => row.id).sort((a, b) => a - b);
    if (ids.length > 0) {
      await recordAudit(tx, actor, {
        action: 'mail.retry_failed',
        before: { status: 'failed', ids },
        after: { status: 'pending', ids },
      });
    }
    return ids;
  });
}
