import { type FormEvent, useState } from 'react';
import type { OrderRow } from '../../../shared/dashboard';
import { formatSubunits } from '../../../shared/money';
import { ORDER_STATUSES, type OrderStatus } from '../../../shared/orders';
import { Button, compactInputClass, FormError } from '../../components/form';
import { dashboardApi } from './api';
import { CursorTable, FIRST_PAGE } from './CursorTable';
import type { Column } from './DataTable';
import { DateRangeInputs, FilterInput } from './fields';
import { ScreenLink } from './links';
import { customerEmail, formatDateTime, ScreenTitle, StatusBadge, useScreenTitle } from './ui';
import { useDashboardData } from './useDashboardData';

type Sort = 'createdAt' | 'amount' | 'status';

export const ORDER_COLUMNS: Array<Column<OrderRow, Sort>> = [
  {
    key: 'when',
    label: 'When',
    sort: 'createdAt',
    render: (order) => <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>,
    className: 'whitespace-nowrap',
  },
  {
    key: 'order',
    label: 'Order',
    render: (order) => (
      <ScreenLink to={`/admin/orders/${order.id}`} className="font-mono text-xs">
        {order.razorpayPaymentId ?? order.razorpayOrderId}
      </ScreenLink>
    ),
  },
  { key: 'customer', label: 'Customer', render: (order) => customerEmail(order.email) },
  { key: 'tool', label: 'Tool', render: (order) => order.tool },
  {
    key: 'amount',
    label: 'Amount',
    sort: 'amount',
    render: (order) => (
      <span className="tabular-nums">
        {formatSubunits(order.amount, order.currency)}
        {order.couponCode && (
          <span className="block text-xs text-slate-700">
            {order.couponCode} −{formatSubunits(order.discount ?? 0, order.currency)}
          </span>
        )}
      </span>
    ),
  },
  {
    key: 'status',
    label: 'Status',
    sort: 'status',
    render: (order) => <StatusBadge status={order.status} />,
  },
];

/** Orders: search by email, order_…, pay_…, invoice number or id; filter by status and days; keyset paging. */
export function OrdersScreen() {
  useScreenTitle('Orders');
  const [query, setQuery] = useState({
    ...FIRST_PAGE,
    after: undefined as string | undefined,
    before: undefined as string | undefined,
    sort: 'createdAt' as Sort,
    dir: 'desc' as 'asc' | 'desc',
    q: '',
    status: '' as OrderStatus | '',
    from: '',
    to: '',
  });
  const [form, setForm] = useState({ q: '', status: '' as OrderStatus | '', from: '', to: '' });
  const { data, error } = useDashboardData(
    () =>
      dashboardApi.orders({
        after: query.after,
        before: query.before,
        sort: query.sort,
        dir: query.dir,
        q: query.q || undefined,
        status: query.status || undefined,
        from: query.from || undefined,
        to: query.to || undefined,
      }),
    JSON.stringify(query),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery((current) => ({
      ...current,
      ...form,
      q: form.q.trim(),
      after: undefined,
      before: undefined,
      ...FIRST_PAGE,
    }));
  };

  return (
    <>
      <ScreenTitle title="Orders" />
      <search>
        <form
          onSubmit={submit}
          className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto] lg:items-end"
        >
          <FilterInput
            id="orders-q"
            label="Email, order_…, pay_… or invoice number"
            type="search"
            value={form.q}
            onValueChange={(q) => setForm({ ...form, q })}
          />
          <div>
            <label htmlFor="orders-status" className="mb-1 block text-sm font-medium text-slate-800">
              Status
            </label>
            <select
              id="orders-status"
              value={form.status}
              onChange={(e) => setForm({ ...form, status: e.target.value as OrderStatus | '' })}
              className={`w-full ${compactInputClass}`}
            >
              <option value="">Any</option>
              {ORDER_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </div>
          <DateRangeInputs idPrefix="orders" range={form} onChange={setForm} />
          <Button type="submit">Search</Button>
        </form>
      </search>
      <FormError message={error} />
      {data && (
        <CursorTable
          data={data}
          query={query}
          setQuery={setQuery}
          caption="Orders"
          columns={ORDER_COLUMNS}
          rowKey={(order) => order.id}
          empty="No orders match."
        />
      )}
    </>
  );
}
