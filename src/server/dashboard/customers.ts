import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { CustomerDetail, CustomerRow, customersQuerySchema, Page } from '../../shared/dashboard';
import type { AppContext } from '../context';
import { orders, purchases, users } from '../db/schema';
import { notFound } from '../http/errors';
import { orderRowsQuery } from '../payments/orders-admin';
import { adminLicensesOf } from './licenses';
import { toOrderRow } from './orders';

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
const SORT_COLUMNS = {
  createdAt: users.createdAt,
  email: sql`lower(${users.email})`,
  name: sql`lower(${users.name})`,
};

async function withCounts(
  ctx: AppContext,
  accounts: Array<typeof users.$inferSelect>,
): Promise<CustomerRow[]> {
  const ids = accounts.map((account) => account.id);
  if (ids.length === 0) return [];
  const [ordered, owned] = await Promise.all([
    ctx.db
      .select({ userId: orders.userId, n: count() })
      .from(orders)
      .where(inArray(orders.userId, ids))
      .groupBy(orders.userId),
    ctx.db
      .select({ userId: purchases.userId, n: count() })
      .from(purchases)
      .where(and(inArray(purchases.userId, ids), isNull(purchases.refundedAt)))
      .groupBy(purchases.userId),
  ]);
  const countOf = (list: Array<{ userId: string; n: number }>, id: string) =>
    Number(list.find((entry) => entry.userId === id)?.n ?? 0);
  return accounts.map((account) => ({
    id: account.id,
    name: account.name,
    email: account.email,
    phone: account.phone,
    createdAt: account.createdAt.toISOString(),
    orders: countOf(ordered, account.id),
    tools: countOf(owned, account.id),
  }));
}

/** Accounts by email, name or phone, with how many orders and live tools each has. */
export async function listCustomers(
  ctx: AppContext,
  query: z.output<typeof customersQuerySchema>,
): Promise<Page<CustomerRow>> {
  const where = query.q
    ? or(
        ilike(users.email, likePattern(query.q)),
        ilike(users.name, likePattern(query.q)),
        ilike(users.phone, likePattern(query.q)),
      )
    : undefined;
  const order = query.dir === 'asc' ? asc : desc;
  const [accounts, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(users)
      .where(where)
      .orderBy(order(SORT_COLUMNS[query.sort]), order(users.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(users).where(where),
  ]);
  return {
    items: await withCounts(ctx, accounts),
    total: Number(total?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function customerDetail(ctx: AppContext, id: string): Promise<CustomerDetail> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('No such customer.');
  const [account] = await ctx.db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!account) throw notFound('No such customer.');
  const [row] = await withCounts(ctx, [account]);
  const orderList = await orderRowsQuery(ctx.db).where(eq(orders.userId, id)).orderBy(desc(orders.createdAt));
  if (!row) throw notFound('No such customer.');
  return {
    ...row,
    orderList: orderList.map(toOrderRow),
    licenses: await adminLicensesOf(ctx, { userId: id }),
  };
}
