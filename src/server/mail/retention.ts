import { sql } from 'drizzle-orm';
import type { Tx } from '../db';
import { PRUNE_BATCH, type Prune, rowsOf } from '../db/prune';

/** What a pruned email leaves behind for whoever it was about: its row id, kind, subject, `ref` and when it went. */
export type ArchivedMail = { id: number; kind: string; subject: string; ref: string | null; sentAt: Date };

/**
 * Sent email past its retention: its text, attachments and address go. `archive` is told of each batch in the same
 * transaction, so a feature that keeps the fact (an order's history) keeps it exactly when the text goes.
 */
export function sentMailPrune(archive: (tx: Tx, gone: ArchivedMail[]) => Promise<void>): Prune {
  return {
    rule: 'sentMail',
    async deleteBatch(tx, cutoff) {
      const gone = rowsOf<{
        id: number;
        kind: string;
        subject: string;
        ref: string | null;
        sent_at: string | Date;
      }>(
        await tx.execute(sql`delete from outbox where id in
          (select id from outbox where status = 'sent' and sent_at < ${cutoff} order by id limit ${PRUNE_BATCH})
          returning id, kind, subject, ref, sent_at`),
      );
      await archive(
        tx,
        gone.map((row) => ({ ...row, id: Number(row.id), sentAt: new Date(row.sent_at) })),
      );
      return gone.length;
    },
  };
}
