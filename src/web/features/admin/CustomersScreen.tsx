import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { CustomerRow } from '../../../shared/dashboard';
import { adminApi } from './api';
import { type Column, DataTable, Pager } from './DataTable';
import { ORDER_COLUMNS } from './OrdersScreen';
import { Button, Card, ErrorText, formatDateTime, ScreenTitle, useScreenTitle } from './ui';
import { useAdminData } from './useAdminData';

type Sort = 'createdAt' | 'email' | 'name';

const COLUMNS: Array<Column<CustomerRow, Sort>> = [
  {
    key: 'email',
    label: 'Email',
    sort: 'email',
    render: (customer) => (
      <Link
        to={`/admin/customers/${customer.id}`}
        className="font-medium text-brand-700 underline underline-offset-2"
      >
        {customer.email}
      </Link>
    ),
  },
  { key: 'name', label: 'Name', sort: 'name', render: (customer) => customer.name },
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
  useScreenTitle('Customers');
  const [query, setQuery] = useState({
    page: 1,
    sort: 'createdAt' as Sort,
    dir: 'desc' as 'asc' | 'desc',
    q: '',
  });
  const [search, setSearch] = useState('');
  const { data, error } = useAdminData(
    () => adminApi.customers({ ...query, q: query.q || undefined }),
    JSON.stringify(query),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery((current) => ({ ...current, page: 1, q: search.trim() }));
  };
  return (
    <>
      <ScreenTitle title="Customers">
        <search className="w-full sm:w-auto">
          <form onSubmit={submit} className="flex w-full gap-2">
            <label htmlFor="customers-search" className="sr-only">
              Search customers
            </label>
            <input
              id="customers-search"
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Email, name or phone"
              className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm sm:w-64"
            />
            <Button type="submit">Search</Button>
          </form>
        </search>
      </ScreenTitle>
      <ErrorText message={error} />
      {data && (
        <>
          <DataTable
            caption="Customers"
            columns={COLUMNS}
            rows={data.items}
            rowKey={(customer) => customer.id}
            sort={query.sort}
            dir={query.dir}
            onSort={(sort, dir) => setQuery((current) => ({ ...current, sort, dir, page: 1 }))}
            empty="No customers match."
          />
          <Pager
            page={data.page}
            pageSize={data.pageSize}
            total={data.total}
            onPage={(page) => setQuery((current) => ({ ...current, page }))}
          />
        </>
      )}
    </>
  );
}

/** One customer and their orders (licenses and devices join here when licensing lands). */
export function CustomerScreen() {
  const { id = '' } = useParams();
  useScreenTitle('Customer');
  const { data, error } = useAdminData(() => adminApi.customer(id), id);
  return (
    <>
      <Link
        to="/admin/customers"
        className="mb-3 inline-block text-sm font-medium text-brand-700 underline underline-offset-2"
      >
        ← Customers
      </Link>
      <ScreenTitle title={data ? data.name : 'Customer'} />
      <ErrorText message={error} />
      {data && (
        <div className="space-y-4">
          <Card title="Account">
            <dl className="grid gap-2 text-sm sm:grid-cols-3">
              <div>
                <dt className="text-slate-600">Email</dt>
                <dd className="break-words">{data.email}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Phone</dt>
                <dd>{data.phone}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Signed up</dt>
                <dd>{formatDateTime(data.createdAt)}</dd>
              </div>
            </dl>
          </Card>
          <h2 className="text-lg font-semibold text-slate-900">Orders</h2>
          <DataTable
            caption={`Orders of ${data.email}`}
            columns={ORDER_COLUMNS}
            rows={data.orderList}
            rowKey={(order) => order.id}
            empty="No orders yet."
          />
        </div>
      )}
    </>
  );
}
