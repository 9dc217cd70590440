import { type SQL, sql } from 'drizzle-orm';
import { RETENTION_DAYS, type RetentionRule } from '../shared/retention';
import type { Database } from './db';
import type { Clock } from './kernel/clock';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Rows deleted per statement, so a large backlog never holds locks or the embedded database's thread for long. */
const BATCH = 2000;

type Prune = { rule: RetentionRule; deleteBatch(cutoff: Date): SQL };

/** `with gone as (<delete … returning …>) select count(*)`: every batch reports how many rows it deleted. */
const counted = (deletion: SQL, thenWith: SQL = sql``) =>
  sql`with gone as (${deletion})${thenWith} select count(*)::int as deleted from gone`;

/** Each rule as one batched DELETE of at most BATCH rows older than the cutoff. */
const PRUNES: Prune[] = [
  {
    rule: 'expiredSessions',
    deleteBatch: (cutoff) =>
      counted(sql`delete from sessions where id_hash in
        (select id_hash from sessions where expires_at < ${cutoff} limit ${BATCH}) returning 1`),
  },
  {
    rule: 'expiredDownloadLinks',
    deleteBatch: (cutoff) =>
      counted(sql`delete from download_tokens where token_hash in
        (select token_hash from download_tokens where expires_at < ${cutoff} limit ${BATCH}) returning 1`),
  },
  {
    rule: 'expiredVerificationCodes',
    deleteBatch: (cutoff) =>
      counted(sql`delete from verification_codes where id in
        (select id from verification_codes where expires_at < ${cutoff} limit ${BATCH}) returning 1`),
  },
  {
    rule: 'sentMail',
    // An order's email leaves a line in the order's history as its row goes: the fact stays, the text does not.
    deleteBatch: (cutoff) =>
      counted(
        sql`delete from outbox where id in
          (select id from outbox where status = 'sent' and sent_at < ${cutoff} order by id limit ${BATCH})
          returning id, kind, subject, ref, sent_at`,
        sql`, archived as (
          insert into order_events (order_id, kind, detail, created_at)
          select o.id, 'email-archived', jsonb_build_object('outboxId', gone.id, 'email', gone.kind,
                   'subject', gone.subject), gone.sent_at
          from gone join orders o on gone.ref = 'order:' || o.id::text
          returning 1)`,
      ),
  },
  {
    rule: 'webhookEvents',
    deleteBatch: (cutoff) =>
      counted(sql`delete from webhook_events where event_id in
        (select event_id from webhook_events where created_at < ${cutoff} limit ${BATCH}) returning 1`),
  },
  {
    rule: 'rateLimitCounters',
    deleteBatch: (cutoff) =>
      counted(sql`delete from rate_limit_hits where (key, window_start) in
        (select key, window_start from rate_limit_hits where window_start < ${cutoff} limit ${BATCH})
        returning 1`),
  },
  {
    rule: 'webhookDeliveries',
    // Their attempts go with them (on delete cascade); a delivery still being tried stays.
    deleteBatch: (cutoff) =>
      counted(sql`delete from webhook_deliveries where id in
        (select id from webhook_deliveries where status <> 'pending' and created_at < ${cutoff}
         order by id limit ${BATCH}) returning 1`),
  },
];

/** A number per rule for `pg_try_advisory_xact_lock`, so two instances never prune the same table at once. */
const lockKey = (rule: RetentionRule) => 0x5e7e_0000 + Object.keys(RETENTION_DAYS).indexOf(rule);

/**
 * Deletes what each rule no longer keeps, batch by batch, each batch in its own short transaction holding the
 * rule's advisory lock: an instance that finds the lock taken leaves that rule to the instance holding it.
 * Returns how many rows each rule deleted.
 */
export async function pruneExpiredRows(db: Database, clock: Clock): Promise<Record<RetentionRule, number>> {
  const deleted = Object.fromEntries(PRUNES.map(({ rule }) => [rule, 0])) as Record<RetentionRule, number>;
  for (const { rule, deleteBatch } of PRUNES) {
    const cutoff = new Date(clock.now().getTime() - RETENTION_DAYS[rule] * DAY_MS);
    for (;;) {
      const count = await db.transaction(async (tx) => {
        const [lock] = rowsOf<{ claimed: boolean }>(
          await tx.execute(sql`select pg_try_advisory_xact_lock(${lockKey(rule)}) as claimed`),
        );
        if (!lock?.claimed) return 0;
        const [batch] = rowsOf<{ deleted: number }>(await tx.execute(deleteBatch(cutoff)));
        return batch?.deleted ?? 0;
      });
      deleted[rule] += count;
      if (count < BATCH) break;
    }
  }
  return deleted;
}

/** The rows of a raw statement's result: both drivers (pg's QueryResult, PGlite's Results) keep them in `rows`. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
