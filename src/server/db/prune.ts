import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { RetentionRule } from '../../shared/retention';
import type { Tx } from './index';

/** Rows deleted per statement, so a large backlog never holds locks or the embedded database's thread for long. */
export const PRUNE_BATCH = 2000;

/**
 * One retention rule of a table's owner (server/retention.ts runs them): deletes at most PRUNE_BATCH rows older than
 * the cutoff inside the caller's transaction and says how many went.
 */
export type Prune = { rule: RetentionRule; deleteBatch(tx: Tx, cutoff: Date): Promise<number> };

/** The rows of a raw statement's result: both drivers (pg's QueryResult, PGlite's Results) keep them in `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Runs `<delete … returning 1>` as `with gone as (…) select count(*)`, so the batch reports how many rows it took. */
export async function countedDelete(tx: Tx, deletion: SQL): Promise<number> {
  const [batch] = rowsOf<{ deleted: number }>(
    await tx.execute(sql`with gone as (${deletion}) select count(*)::int as deleted from gone`),
  );
  return batch?.deleted ?? 0;
}

/**
 * The usual rule: the rows of `table` whose `before` column is earlier than the cutoff, taken by their `key` a batch
 * at a time. The owner names its own table, so the rule stays in the owner's folder.
 */
export function prunePast(rule: RetentionRule, table: PgTable, key: PgColumn, before: PgColumn): Prune {
  return {
    rule,
    deleteBatch: (tx, cutoff) =>
      countedDelete(
        tx,
        sql`delete from ${table} where ${key} in
          (select ${key} from ${table} where ${before} < ${cutoff} limit ${PRUNE_BATCH}) returning 1`,
      ),
  };
}
