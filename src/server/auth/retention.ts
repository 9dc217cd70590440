import { sql } from 'drizzle-orm';
import { countedDelete, PRUNE_BATCH, type Prune } from '../db/prune';

/** Sessions and emailed codes past their end. */
export const accountPrunes: Prune[] = [
  {
    rule: 'expiredSessions',
    deleteBatch: (tx, cutoff) =>
      countedDelete(
        tx,
        sql`delete from sessions where id_hash in
          (select id_hash from sessions where expires_at < ${cutoff} limit ${PRUNE_BATCH}) returning 1`,
      ),
  },
  {
    rule: 'expiredVerificationCodes',
    deleteBatch: (tx, cutoff) =>
      countedDelete(
        tx,
        sql`delete from verification_codes where id in
          (select id from verification_codes where expires_at < ${cutoff} limit ${PRUNE_BATCH}) returning 1`,
      ),
  },
];
