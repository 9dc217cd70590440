import { TriangleAlert } from 'lucide';
import type { ReactNode } from 'react';
import { formatSubunits } from '../../../shared/money';
import type { OrderDetail } from '../../../shared/order-detail';
import { OrderSummary } from '../../components/billing/OrderSummary';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { ApiError } from '../../lib/api';
import { useQuery } from '../../lib/useQuery';
import { useAuth } from '../../session/AuthContext';
import { ordersApi } from './api';
import { BillingCorrection } from './BillingCorrection';
import { type LicenseEditionSlot, LicenseSummary } from './LicenseSummary';
import { Fact, Panel, when } from './Panel';
import { ProformaPanel } from './ProformaPanel';
import { TaxDocuments } from './TaxDocuments';
import { TdsCertificatePanel } from './TdsCertificatePanel';

export const ORDER_PAGE_MESSAGES = {
  notFound: 'There is no such order in your account.',
  loadFailed: 'Failed to load this order. Please try again.',
  signedOut: 'Please log in to see this order.',
} as const;

const STATUS_LABELS: Record<OrderDetail['status'], string> = {
  created: 'Awaiting payment',
  paid: 'Paid',
  refunded: 'Refunded',
  failed: 'Not paid',
  cancelled: 'Cancelled: its proforma expired unpaid',
};
const METHOD_LABELS: Record<string, string> = {
  card: 'Card',
  upi: 'UPI',
  netbanking: 'Net banking',
  wallet: 'Wallet',
  emi: 'EMI',
  coupon: 'Coupon (nothing to pay)',
};

/** The order id in /my-tools/orders/<orderId>, read in the browser (the prerendered shell has none). */
/** "₹1,199.20 · credit note PCAC/26-27/00001": what went back to the buyer, and the document that credits it. */
export const refundedText = (refund: NonNullable<OrderDetail['refund']>, currency: OrderDetail['currency']) =>
  [formatSubunits(refund.amount, currency), refund.creditNote && `credit note ${refund.creditNote}`]
    .filter(Boolean)
    .join(' · ');

function orderIdFromLocation(): string | null {
  const match = /^\/my-tools\/orders\/([^/]+)\/?$/.exec(window.location.pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/** An address with no order id in it: no such order. */
const NO_ORDER_ID = new Error('no order id in the address');

function problemOf(failure: unknown): keyof typeof ORDER_PAGE_MESSAGES {
  if (failure === NO_ORDER_ID || (failure instanceof ApiError && failure.status === 404)) return 'notFound';
  return failure instanceof ApiError && failure.status === 401 ? 'signedOut' : 'loadFailed';
}

/** The order page's data: loaded once the auth check says someone is signed in. */
function useOrder() {
  const { checked, loggedIn } = useAuth();
  const { data, error, reload } = useQuery(
    checked && loggedIn ? 'order' : null,
    () => {
      const orderId = orderIdFromLocation();
      return orderId ? ordersApi.order(orderId) : Promise.reject(NO_ORDER_ID);
    },
    (failure) => {
      if (problemOf(failure) === 'loadFailed') console.error('Failed to load the order', failure);
    },
  );
  const problem = checked && !loggedIn ? 'signedOut' : error === null ? null : problemOf(error);
  return { order: data, problem, reload };
}

/** /my-tools/orders/<orderId>: one order with everything about it, for its owner. */
export function OrderView({
  children,
  licenseEdition,
}: {
  children?: (order: OrderDetail, reload: () => void) => ReactNode;
  licenseEdition?: LicenseEditionSlot;
}) {
  const { order, problem, reload } = useOrder();
  if (problem) {
    return (
      <p role="alert" className="inline-flex items-center gap-2 text-red-800">
        <Icon node={TriangleAlert} className="size-5" />
        {ORDER_PAGE_MESSAGES[problem]}
      </p>
    );
  }
  // While the order loads, its place is held at less than any order's height (40rem; a paid order is about 129rem
  // at 412 px and 86rem at 1,440) and more than puts the footer below the fold: nothing in view moves when the
  // order arrives (the 18rem spinner before moved the footer, CLS 0.092; decision 052).
  if (!order) return <Spinner label="Loading the order" className="min-h-[40rem]" />;
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="space-y-8">
        <Panel title="Order">
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            <Fact label="Status" value={STATUS_LABELS[order.status]} />
            <Fact label="Ordered" value={when(order.createdAt)} />
            <Fact label="Order number" value={order.id} mono />
          </dl>
          <table className="mt-5 w-full text-left text-sm">
            <caption className="sr-only">Lines of the order</caption>
            <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="py-2 pr-3 font-semibold">
                  Item
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-semibold">
                  Qty
                </th>
                <th scope="col" className="py-2 text-right font-semibold">
                  Price
                </th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((line) => (
                <tr key={line.description} className="align-top">
                  <td className="py-2 pr-3 font-medium text-brand-900">{line.description}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{line.quantity}</td>
                  <td className="py-2 text-right tabular-nums">
                    {formatSubunits(line.amount, order.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="mt-4">
            <OrderSummary quote={order} couponCode={order.coupon?.code ?? null} title="Price" />
          </div>
        </Panel>

        {order.proforma && <ProformaPanel order={order} proforma={order.proforma} />}
        {order.tdsCertificate && (
          <TdsCertificatePanel order={order} tds={order.tdsCertificate} onChanged={() => void reload()} />
        )}

        <Panel title="Payment">
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            <Fact label="Payment reference" value={order.payment.reference ?? '—'} mono />
            <Fact
              label="Razorpay order"
              value={order.payment.orderReference.startsWith('order_') ? order.payment.orderReference : '—'}
              mono
            />
            <Fact
              label="Method"
              value={
                order.payment.method ? (METHOD_LABELS[order.payment.method] ?? order.payment.method) : '—'
              }
            />
            <Fact label="Paid" value={order.payment.paidAt ? when(order.payment.paidAt) : '—'} />
            {order.refund && <Fact label="Refunded" value={refundedText(order.refund, order.currency)} />}
          </dl>
        </Panel>

        <Panel title="Billed to">
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            {order.billing.address && <Fact label="Address" value={order.billing.address} />}
            {order.billing.state && <Fact label="State" value={order.billing.state} />}
            <Fact label="Country" value={order.billing.country || 'India'} />
            <Fact label="GSTIN" value={order.billing.gstin || '—'} mono />
          </dl>
          <BillingCorrection order={order} onChanged={() => void reload()} />
        </Panel>
        {children?.(order, () => void reload())}
      </div>

      <div className="space-y-8">
        <TaxDocuments documents={order.documents} />

        <LicenseSummary license={order.license} edition={licenseEdition} />

        <Panel title="History">
          <ol className="space-y-2 text-sm">
            {order.history.map((event, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows at its end.
              <li key={index} className="flex flex-col">
                <span className="text-xs text-slate-600">{when(event.at)}</span>
                <span>{event.label}</span>
              </li>
            ))}
          </ol>
        </Panel>
      </div>
    </div>
  );
}
