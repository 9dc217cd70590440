import { useState } from 'react';
import { formatSubunits } from '../../../shared/money';
import { Button, FormError } from '../../components/form';
import { dashboardApi, problem } from './api';
import { LicensesPanel } from './LicensesPanel';
import { BackLink } from './links';
import { Detail, OrderRecords } from './OrderRecords';
import { ProformaPaymentPanel, TdsCertificateCard } from './ProformaPaymentPanel';
import { RefundPanel } from './RefundPanel';
import {
  ActionNotice,
  Card,
  customerEmail,
  formatDateTime,
  isErasedEmail,
  ScreenTitle,
  StatusBadge,
  useNotice,
  useScreenTitle,
} from './ui';
import { useDashboardData, useRecordId } from './useDashboardData';

/** One order: buyer, billing, amount, the events timeline, the emails it caused, and its actions. */
export function OrderScreen() {
  const id = useRecordId();
  useScreenTitle('Order');
  const { data: order, error, reload } = useDashboardData(() => dashboardApi.order(id), id);
  const [notice, setNotice] = useNotice();
  const [actionError, setActionError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const [refunding, setRefunding] = useState(false);

  return (
    <>
      <BackLink to="/admin/orders">Orders</BackLink>
      <ScreenTitle title={order ? `Order ${order.razorpayPaymentId ?? order.razorpayOrderId}` : 'Order'} />
      <FormError message={error} />
      <ActionNotice message={notice} />
      {order && (
        <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
          <Card title="Summary">
            <dl>
              <Detail label="Status">
                <StatusBadge status={order.status} />
              </Detail>
              <Detail label="Amount">{formatSubunits(order.amount, order.currency)}</Detail>
              {order.couponCode && (
                <Detail label="Coupon">
                  {order.couponCode}: {formatSubunits(order.discount ?? 0, order.currency)} off
                </Detail>
              )}
              <Detail label="Tool">{order.tool}</Detail>
              <Detail label="Buyer">
                {order.customerName} ·{' '}
                {isErasedEmail(order.email) ? (
                  customerEmail(order.email)
                ) : (
                  <a href={`mailto:${order.email}`} className="text-brand-700 underline underline-offset-2">
                    {order.email}
                  </a>
                )}
              </Detail>
              <Detail label="Created">{formatDateTime(order.createdAt)}</Detail>
              {order.paidAt && <Detail label="Paid">{formatDateTime(order.paidAt)}</Detail>}
              {order.failureReason && <Detail label="Failure">{order.failureReason}</Detail>}
              <Detail label="Razorpay order">
                <code className="font-mono text-xs">{order.razorpayOrderId}</code>
              </Detail>
              {order.razorpayPaymentId && (
                <Detail label="Payment">
                  <code className="font-mono text-xs">{order.razorpayPaymentId}</code>
                </Detail>
              )}
              <Detail label="Order id">
                <code className="font-mono text-xs">{order.id}</code>
              </Detail>
            </dl>
            {order.status === 'paid' && (
              <div className="mt-4 flex flex-wrap gap-2 border-t border-slate-100 pt-4">
                <Button
                  variant="secondary"
                  busy={resending}
                  onClick={async () => {
                    setResending(true);
                    setActionError(null);
                    try {
                      setNotice((await dashboardApi.resend(order.id)).message);
                      reload();
                    } catch (failure) {
                      setActionError(problem(failure));
                    } finally {
                      setResending(false);
                    }
                  }}
                >
                  Resend delivery email
                </Button>
                {refunding ? (
                  <RefundPanel
                    orderId={order.id}
                    amount={formatSubunits(order.amount, order.currency)}
                    onCancel={() => setRefunding(false)}
                    onDone={(message) => {
                      setRefunding(false);
                      setNotice(message);
                      reload();
                    }}
                  />
                ) : (
                  <Button variant="danger" onClick={() => setRefunding(true)}>
                    Refund…
                  </Button>
                )}
              </div>
            )}
            <FormError message={actionError} />
          </Card>
          {order.proforma && (
            <ProformaPaymentPanel
              order={order}
              proforma={order.proforma}
              onChanged={(message) => {
                setNotice(message);
                reload();
              }}
            />
          )}
          {order.tdsAmount > 0 && (
            <TdsCertificateCard
              order={order}
              onChanged={(message) => {
                setNotice(message);
                reload();
              }}
            />
          )}
          <LicensesPanel
            licenses={order.licenses}
            onChanged={(message) => {
              setNotice(message);
              reload();
            }}
          />
          <OrderRecords order={order} />
        </div>
      )}
    </>
  );
}
