import { desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { CursorPage, CustomerDetail, CustomerRow, customersQuerySchema } from '../../shared/dashboard';
import { accountById, listAccounts } from '../auth/users';
import { orders } from '../db/schema';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { orderRowsQuery } from '../payments/orders-admin';
import { adminLicensesOf } from './licenses';
import { toOrderRow } from './orders';

type Account = NonNullable<Awaited<ReturnType<typeof accountById>>>;

const toCustomerRow = ({ createdAt, erasedAt, ...account }: Account): CustomerRow => ({
  ...account,
  createdAt: createdAt.toISOString(),
  erasedAt: erasedAt?.toISOString() ?? null,
});

/** The operator's one list of accounts as the Customers table's page. */
export async function listCustomers(
  ctx: AppContext,
  query: z.output<typeof customersQuerySchema>,
): Promise<CursorPage<CustomerRow>> {
  const { rows, ...page } = await listAccounts(ctx, { ...query, search: query.q });
  return { items: rows.map(toCustomerRow), ...page, pageSize: query.pageSize };
}

export async function customerDetail(ctx: AppContext, id: string): Promise<CustomerDetail> {
  const account = await accountById(ctx, id);
  if (!account) throw new DomainError('not_found', 'No such customer.');
  const orderList = await orderRowsQuery(ctx.db).where(eq(orders.userId, id)).orderBy(desc(orders.createdAt));
  return {
    ...toCustomerRow(account),
    orderList: orderList.map(toOrderRow),
    licenses: await adminLicensesOf(ctx, { userId: id }),
  };
}
