import { and, count, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { countedKeysetPage, MATCHING_ROW } from '../db/keyset';
import { users } from '../db/schema/accounts';
import { orders, purchases } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';

/** The operator's view of accounts: who signed up, and what each ordered and owns. */

/** `%` and `_` typed by the operator are matched literally. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * The start or the end of an email, any letter case (`asha.`, `@gmail.com`): the two pattern indexes on users
 * answer both, where a match anywhere inside would read every account.
 */
export function emailMatches(typed: string): SQL {
  const text = typed.toLowerCase();
  return or(
    sql`lower(${users.email}) like ${`${escapeLike(text)}%`}`,
    sql`reverse(lower(${users.email})) like ${`${escapeLike([...text].reverse().join(''))}%`}`,
  ) as SQL;
}

const ACCOUNT_ORDERS = {
  createdAt: users.createdAt,
  email: sql`lower(${users.email})`,
  name: sql`lower(${users.name})`,
};

/** Which accounts, in which order: the dashboard's Customers table and the command line's `users list`. */
export type AccountQuery = {
  /** The start or end of the email, the start of the name, the last digits of the phone. */
  search?: string;
  sort: keyof typeof ACCOUNT_ORDERS;
  dir: 'asc' | 'desc';
  /** Keyset cursors (db/keyset.ts): the id of the row the page follows, or precedes. */
  after?: string;
  before?: string;
  pageSize: number;
};

const accountColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  phone: users.phone,
  createdAt: users.createdAt,
  erasedAt: users.erasedAt,
};

type Account = {
  id: string;
  name: string;
  email: string;
  phone: string;
  createdAt: Date;
  erasedAt: Date | null;
};

/** The accounts with how many tools each owns (not refunded) and how many orders it made. */
async function withCounts<A extends Account>(ctx: Pick<AppContext, 'db'>, accounts: A[]) {
  const ids = accounts.map((account) => account.id);
  const [owned, ordered] = ids.length
    ? await Promise.all([
        ctx.db
          .select({ userId: purchases.userId, n: count() })
          .from(purchases)
          .where(and(inArray(purchases.userId, ids), isNull(purchases.refundedAt)))
          .groupBy(purchases.userId),
        ctx.db
          .select({ userId: orders.userId, n: count() })
          .from(orders)
          .where(inArray(orders.userId, ids))
          .groupBy(orders.userId),
      ])
    : [[], []];
  const countOf = (list: Array<{ userId: string; n: number }>, id: string) =>
    Number(list.find((entry) => entry.userId === id)?.n ?? 0);
  return accounts.map((account) => ({
    ...account,
    tools: countOf(owned, account.id),
    orders: countOf(ordered, account.id),
  }));
}

/**
 * What the operator typed, each part an index look-up: the start or end of the email, the start of the name, or the
 * last digits of the phone.
 */
function accountSearch(typed: string): SQL {
  const digits = typed.replace(/[\s-]/g, '');
  return or(
    emailMatches(typed),
    sql`lower(${users.name}) like ${`${escapeLike(typed.toLowerCase())}%`}`,
    /^\+?\d{3,}$/.test(digits)
      ? sql`reverse(${users.phone}) like ${`${escapeLike([...digits.replace(/^\+/, '')].reverse().join(''))}%`}`
      : undefined,
  ) as SQL;
}

/** THE list of accounts (one page, and how many match), for both adapters. */
export async function listAccounts(ctx: AppContext, query: AccountQuery) {
  const where = query.search ? accountSearch(query.search) : undefined;
  const page = await countedKeysetPage(
    ctx.db,
    { ...query, table: users, sort: ACCOUNT_ORDERS[query.sort], id: users.id, idType: 'uuid' },
    where,
    ctx.db.select(accountColumns).from(users).$dynamic(),
    ctx.db.select(MATCHING_ROW).from(users).$dynamic(),
  );
  return { ...page, rows: await withCounts(ctx, page.rows) };
}

/** One account with its counts, by its id or by its email in any letter case; undefined when there is none. */
export async function findAccount(ctx: Pick<AppContext, 'db'>, by: { id: string } | { email: string }) {
  const [account] = await ctx.db
    .select({ ...accountColumns, passwordChangedAt: users.passwordChangedAt })
    .from(users)
    .where('id' in by ? eq(users.id, by.id) : sql`lower(${users.email}) = lower(${by.email})`)
    .limit(1);
  return account ? (await withCounts(ctx, [account]))[0] : undefined;
}
