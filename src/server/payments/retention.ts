import { sql } from 'drizzle-orm';
import { countedDelete, PRUNE_BATCH, type Prune } from '../db/prune';

/** Ids of Razorpay events handled long ago: Razorpay retries for at most a day. */
export const razorpayEventPrune: Prune = {
  rule: 'webhookEvents',
  deleteBatch: (tx, cutoff) =>
    countedDelete(
      tx,
      sql`delete from webhook_events where event_id in
        (select event_id from webhook_events where created_at < ${cutoff} limit ${PRUNE_BATCH}) returning 1`,
    ),
};
