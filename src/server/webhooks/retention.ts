import { sql } from 'drizzle-orm';
import { countedDelete, PRUNE_BATCH, type Prune } from '../db/prune';

/** Deliveries delivered or given up; their attempts go with them (on delete cascade), one still tried stays. */
export const webhookDeliveryPrune: Prune = {
  rule: 'webhookDeliveries',
  deleteBatch: (tx, cutoff) =>
    countedDelete(
      tx,
      sql`delete from webhook_deliveries where id in
        (select id from webhook_deliveries where status <> 'pending' and created_at < ${cutoff}
         order by id limit ${PRUNE_BATCH}) returning 1`,
    ),
};
