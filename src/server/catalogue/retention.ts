import { sql } from 'drizzle-orm';
import { countedDelete, PRUNE_BATCH, type Prune } from '../db/prune';

/** Download links past their 3 hours. */
export const downloadLinkPrune: Prune = {
  rule: 'expiredDownloadLinks',
  deleteBatch: (tx, cutoff) =>
    countedDelete(
      tx,
      sql`delete from download_tokens where token_hash in
        (select token_hash from download_tokens where expires_at < ${cutoff} limit ${PRUNE_BATCH}) returning 1`,
    ),
};
