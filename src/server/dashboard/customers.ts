import type { z } from 'zod';
import type { CursorPage, CustomerDetail, CustomerRow, customersQuerySchema } from '../../shared/dashboard';
import { listAccounts } from '../auth/users';
import type { AppContext } from '../kernel/context';
import { customerDossier } from '../orders/read/operator';
import { adminLicensesOf } from './licenses';
import { toOrderRow } from './orders';

type Account = Awaited<ReturnType<typeof listAccounts>>['rows'][number];

const toCustomerRow = (account: Account): CustomerRow => ({
  id: account.id,
  name: account.name,
  email: account.email,
  phone: account.phone,
  tools: account.tools,
  orders: account.orders,
  createdAt: account.createdAt.toISOString(),
  erasedAt: account.erasedAt?.toISOString() ?? null,
});

/** The operator's one list of accounts as the Customers table's page. */
export async function listCustomers(
  ctx: AppContext,
  query: z.output<typeof customersQuerySchema>,
): Promise<CursorPage<CustomerRow>> {
  const { rows, ...page } = await listAccounts(ctx, { ...query, search: query.q });
  return { items: rows.map(toCustomerRow), ...page, pageSize: query.pageSize };
}

/** One customer in full for the dashboard: the one read model (`customerDossier`), with the customer's licenses. */
export async function customerDetail(ctx: AppContext, id: string): Promise<CustomerDetail> {
  const { account, orders } = await customerDossier(ctx, { id });
  return {
    ...toCustomerRow(account),
    orderList: orders.map(toOrderRow),
    licenses: await adminLicensesOf(ctx, { userId: id }),
  };
}
