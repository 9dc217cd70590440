import { and, asc, count, desc, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import { COUNT_LIMIT } from '../../shared/dashboard';
import type { DbOrTx } from '.';

/**
 * Keyset paging of a list that grows without bound: a page starts after (or ends before) the row whose id the
 * cursor names, compared on (sort value, id), so an index on those two answers page 1,000 as fast as page 1 where
 * OFFSET would read and throw away every row before it. The cursor's sort value is read from its row by a
 * subquery rather than carried in the cursor: the database's timestamps have microseconds that a JavaScript date
 * would round away, and the cursor stays an opaque id.
 */
export type KeysetOptions = {
  table: PgTable;
  /** The sort column (or expression over `table`), ties broken by `id`. */
  sort: PgColumn | SQL;
  id: PgColumn;
  idType: 'uuid' | 'bigint';
  dir: 'asc' | 'desc';
  after?: string;
  before?: string;
  pageSize: number;
};

export type KeysetPage<Row> = { rows: Row[]; next: string | null; previous: string | null };

/** The condition and order of the page's query: rows past the cursor, in the order the page is read. */
export function keysetQuery(options: KeysetOptions): {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
} {
  const backwards = options.before !== undefined && options.after === undefined;
  const dir = backwards ? (options.dir === 'asc' ? 'desc' : 'asc') : options.dir;
  const cursor = options.after ?? options.before;
  const order = dir === 'asc' ? asc : desc;
  const where =
    cursor === undefined
      ? undefined
      : sql`(${options.sort}, ${options.id}) ${sql.raw(dir === 'asc' ? '>' : '<')} ((select ${options.sort} from ${options.table} where ${options.id} = ${cursor}::${sql.raw(options.idType)}), ${cursor}::${sql.raw(options.idType)})`;
  return { where, orderBy: [order(options.sort), order(options.id)], limit: options.pageSize + 1 };
}

/** Runs a page's query (one row more than the page, to know whether another follows) and sets the cursors beside it. */
export async function keysetPage<Row extends { id: string | number }>(
  options: KeysetOptions,
  run: (page: ReturnType<typeof keysetQuery>) => Promise<Row[]>,
): Promise<KeysetPage<Row>> {
  const backwards = options.before !== undefined && options.after === undefined;
  const fetched = await run(keysetQuery(options));
  const more = fetched.length > options.pageSize;
  const rows = fetched.slice(0, options.pageSize);
  if (backwards) rows.reverse();
  const first = rows[0] === undefined ? null : String(rows[0].id);
  const last = rows.at(-1) === undefined ? null : String(rows.at(-1)?.id);
  const cursor = options.after ?? options.before;
  return backwards
    ? { rows, previous: more ? first : null, next: last }
    : { rows, previous: cursor === undefined ? null : first, next: more ? last : null };
}

/** How many rows a list's query matches, counting no further than COUNT_LIMIT + 1. */
export async function cappedCount(
  db: DbOrTx,
  matching: PgSelect,
): Promise<{ total: number; totalCapped: boolean }> {
  const [row] = await db.select({ n: count() }).from(matching.limit(COUNT_LIMIT + 1).as('matching'));
  const n = Number(row?.n ?? 0);
  return { total: Math.min(n, COUNT_LIMIT), totalCapped: n > COUNT_LIMIT };
}

/** The one column of a list's count query (`cappedCount` counts its rows, not what they hold). */
export const MATCHING_ROW = { one: sql<number>`1`.as('one') };

/**
 * A page of a list and how many of its rows match `where` in all, read side by side: `rows` is the page's query
 * (its columns and joins) and `matching` the same joins over MATCHING_ROW, both `$dynamic()` and without a where.
 */
export async function countedKeysetPage<Row extends { id: string | number }>(
  db: DbOrTx,
  options: KeysetOptions,
  where: SQL | undefined,
  rows: PromiseLike<Row[]> & {
    where(where: SQL | undefined): { orderBy(...orderBy: SQL[]): { limit(limit: number): unknown } };
  },
  matching: PgSelect,
): Promise<KeysetPage<Row> & { total: number; totalCapped: boolean }> {
  const [page, counted] = await Promise.all([
    keysetPage(options, async (keyset) => {
      // A dynamic query takes its clauses in place, and keeps its row type.
      rows
        .where(and(where, keyset.where))
        .orderBy(...keyset.orderBy)
        .limit(keyset.limit);
      return rows;
    }),
    cappedCount(db, matching.where(where)),
  ]);
  return { ...page, ...counted };
}
