import { FileText, ReceiptText, TriangleAlert } from 'lucide';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { formatPrice } from '../../../shared/money';
import { orderPagePath } from '../../../shared/order-detail';
import type { OrderHistoryOrder } from '../../../shared/order-history';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { formatDate } from '../../lib/dates';
import { useQuery } from '../../lib/useQuery';
import { useAuth } from '../../session/AuthContext';
import { ordersApi } from './api';

export const ORDER_HISTORY_MESSAGES = {
  loadFailed: 'Failed to load your order history.',
  empty: 'Your paid orders, with their tax invoices, will appear here.',
} as const;

const BADGES: Record<OrderHistoryOrder['status'], [label: string, colours: string]> = {
  paid: ['Paid', 'bg-emerald-100 text-emerald-900'],
  refunded: ['Refunded', 'bg-amber-100 text-amber-900'],
  'awaiting-payment': ['Awaiting payment', 'bg-sky-100 text-sky-900'],
};

function StatusBadge({ status }: { status: OrderHistoryOrder['status'] }) {
  const [label, colours] = BADGES[status];
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${colours}`}>{label}</span>
  );
}

function DocumentLinks({ order }: { order: OrderHistoryOrder }) {
  const links = [
    { label: 'Invoice', number: order.invoiceNumber, url: order.invoiceUrl },
    { label: 'Credit note', number: order.creditNoteNumber, url: order.creditNoteUrl },
  ].filter((link) => link.url && link.number);
  if (links.length === 0) return <span className="text-sm text-slate-500">—</span>;
  return (
    <ul className="flex flex-col gap-1.5">
      {links.map((link) => (
        <li key={link.label}>
          <a
            href={link.url ?? undefined}
            download
            className="inline-flex min-h-6 items-center gap-1.5 text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900"
          >
            <Icon node={FileText} className="size-4 shrink-0" />
            {link.label} {link.number}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The tool's name, leading to the order's own page. */
function OrderLink({ order }: { order: OrderHistoryOrder }) {
  return (
    <Link href={orderPagePath(order.id)} className="underline underline-offset-4 hover:text-brand-800">
      {order.toolName}
    </Link>
  );
}

function OrderRows({ orders }: { orders: OrderHistoryOrder[] }) {
  return (
    <>
      <table className="hidden w-full text-left text-sm md:table">
        <caption className="sr-only">Your orders, newest first</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className="py-3 pr-4 font-semibold">
              Date
            </th>
            <th scope="col" className="py-3 pr-4 font-semibold">
              Tool
            </th>
            <th scope="col" className="py-3 pr-4 text-right font-semibold">
              Amount
            </th>
            <th scope="col" className="py-3 pr-4 font-semibold">
              Status
            </th>
            <th scope="col" className="py-3 font-semibold">
              Documents
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {orders.map((order) => (
            <tr key={order.id} className="align-top">
              <td className="py-4 pr-4 whitespace-nowrap text-slate-700">{formatDate(order.createdAt)}</td>
              <td className="py-4 pr-4 font-medium text-brand-900">
                <OrderLink order={order} />
              </td>
              <td className="py-4 pr-4 text-right whitespace-nowrap text-slate-900 tabular-nums">
                {formatPrice(order.amount, order.currency)}
              </td>
              <td className="py-4 pr-4">
                <StatusBadge status={order.status} />
              </td>
              <td className="py-4">
                <DocumentLinks order={order} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="space-y-4 md:hidden">
        {orders.map((order) => (
          <li
            key={order.id}
            className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm shadow-slate-900/5"
          >
            <div className="flex items-start justify-between gap-3">
              <p className="font-semibold text-brand-900">
                <OrderLink order={order} />
              </p>
              <StatusBadge status={order.status} />
            </div>
            <p className="mt-1 text-sm text-slate-700">
              {formatDate(order.createdAt)} · {formatPrice(order.amount, order.currency)}
            </p>
            <div className="mt-3">
              <DocumentLinks order={order} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

/** My Tools' order history: every paid or refunded order with its tax invoice and credit note downloads. */
export function OrderHistory() {
  const { checked, loggedIn } = useAuth();
  const { data: orders, error } = useQuery(
    checked && loggedIn ? 'orders' : null,
    ordersApi.orders,
    (failure) => console.error('Failed to load the order history', failure),
  );
  const loadFailed = error !== null;

  let body: ReactNode;
  if (loadFailed) {
    body = (
      <p role="alert" className="inline-flex items-center gap-2 text-red-800">
        <Icon node={TriangleAlert} className="size-5" />
        {ORDER_HISTORY_MESSAGES.loadFailed}
      </p>
    );
  } else if (!orders) {
    body = <Spinner label="Loading your orders" className="min-h-32" />;
  } else if (orders.length === 0) {
    body = <p className="text-slate-600">{ORDER_HISTORY_MESSAGES.empty}</p>;
  } else {
    body = <OrderRows orders={orders} />;
  }

  return (
    <div className="rounded-2xl border border-slate-200 bg-slate-50/60 p-5 sm:p-6">
      <h2
        id="order-history-heading"
        className="inline-flex items-center gap-2 text-xl font-semibold text-brand-900"
      >
        <Icon node={ReceiptText} className="size-5 text-brand-700" />
        Order history
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Tax invoices and credit notes for your records; a download always gives the same document.
      </p>
      <div className="mt-5" aria-busy={!orders && !loadFailed}>
        {body}
      </div>
    </div>
  );
}
