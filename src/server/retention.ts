import { sql } from 'drizzle-orm';
import { RETENTION_DAYS, type RetentionRule } from '../shared/retention';
import { accountPrunes } from './auth/retention';
import { downloadLinkPrune } from './catalogue/retention';
import type { Database } from './db';
import { PRUNE_BATCH, type Prune, rowsOf } from './db/prune';
import { rateLimitPrune } from './http/rate-limit';
import type { Clock } from './kernel/clock';
import { sentMailPrune } from './mail/retention';
import { archiveOrderEmails } from './orders/events';
import { razorpayEventPrune } from './payments/retention';
import { webhookDeliveryPrune } from './webhooks/retention';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Every owner's retention rules (shared/retention.ts names the periods): each table's owner says how its old rows
 * go; this job only runs them, one batch at a time.
 */
const PRUNES: Prune[] = [
  ...accountPrunes,
  downloadLinkPrune,
  sentMailPrune(archiveOrderEmails),
  razorpayEventPrune,
  rateLimitPrune,
  webhookDeliveryPrune,
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
        return deleteBatch(tx, cutoff);
      });
      deleted[rule] += count;
      if (count < PRUNE_BATCH) break;
    }
  }
  return deleted;
}
