import type { CustomerRow } from '../../../shared/dashboard';
import { FormError } from '../../components/form';
import { dashboardApi } from './api';
import { type Column, DataTable } from './DataTable';
import { LicensesPanel } from './LicensesPanel';
import { BackLink, ScreenLink } from './links';
import { ORDER_COLUMNS } from './OrdersScreen';
import { SearchableTableScreen } from './SearchableTableScreen';
import {
  ActionNotice,
  Card,
  customerEmail,
  formatDateTime,
  ScreenTitle,
  useNotice,
  useScreenTitle,
} from './ui';
import { useDashboardData, useRecordId } from './useDashboardData';

type Sort = 'createdAt' | 'email' | 'name';

const COLUMNS: Array<Column<CustomerRow, Sort>> = [
  {
    key: 'email',
    label: 'Email',
    sort: 'email',
    render: (customer) => (
      <ScreenLink to={`/admin/customers/${customer.id}`}>{customerEmail(customer.email)}</ScreenLink>
    ),
  },
  {
    key: 'name',
    label: 'Name',
    sort: 'name',
    render: (customer) =>
      customer.erasedAt ? `Erased on ${formatDateTime(customer.erasedAt)}` : customer.name,
  },
  { key: 'phone', label: 'Phone', render: (customer) => customer.phone },
  {
    key: 'since',
    label: 'Signed up',
    sort: 'createdAt',
    render: (customer) => formatDateTime(customer.createdAt),
  },
  { key: 'orders', label: 'Orders', render: (customer) => customer.orders },
  { key: 'tools', label: 'Tools', render: (customer) => customer.tools },
];

/** Customers: search by email, name or phone; server-side paging and sorting. */
export function CustomersScreen() {
  return (
    <SearchableTableScreen
      title="Customers"
      search={{ id: 'customers-search', label: 'Search customers', placeholder: 'Email, name or phone' }}
      initialSort="createdAt"
      load={dashboardApi.customers}
      caption="Customers"
      columns={COLUMNS}
      rowKey={(customer) => customer.id}
      empty={() => 'No customers match.'}
    />
  );
}

/** One customer and their orders (licenses and devices join here when licensing lands). */
export function CustomerScreen() {
  const id = useRecordId();
  useScreenTitle('Customer');
  const { data, error, reload } = useDashboardData(() => dashboardApi.customer(id), id);
  const [notice, setNotice] = useNotice();
  return (
    <>
      <BackLink to="/admin/customers">Customers</BackLink>
      <ScreenTitle title={data ? data.name || 'Erased account' : 'Customer'} />
      <FormError message={error} />
      <ActionNotice message={notice} />
      {data && (
        <div className="space-y-4">
          <Card title="Account">
            <dl className="grid gap-2 text-sm sm:grid-cols-3">
              <div>
                <dt className="text-slate-600">Email</dt>
                <dd className="break-words">{customerEmail(data.email)}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Phone</dt>
                <dd>{data.phone}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Signed up</dt>
                <dd>{formatDateTime(data.createdAt)}</dd>
              </div>
              {data.erasedAt && (
                <div>
                  <dt className="text-slate-600">Deleted by the buyer</dt>
                  <dd className="font-medium text-red-800">Erased on {formatDateTime(data.erasedAt)}</dd>
                </div>
              )}
            </dl>
            <p className="mt-4 text-sm">
              {/* A written data request (DPDP Act s. 11) is answered with this file; the download is recorded in Activity. */}
              <a
                href={`/api/admin/customers/${data.id}/export`}
                download
                className="font-medium text-brand-700 underline underline-offset-2"
              >
                Download data
              </a>
            </p>
          </Card>
          <h2 className="text-lg font-semibold text-slate-900">Orders</h2>
          <DataTable
            caption={`Orders of ${customerEmail(data.email)}`}
            columns={ORDER_COLUMNS}
            rows={data.orderList}
            rowKey={(order) => order.id}
            empty="No orders yet."
          />
          <LicensesPanel
            licenses={data.licenses}
            onChanged={(message) => {
              setNotice(message);
              reload();
            }}
          />
        </div>
      )}
    </>
  );
}
