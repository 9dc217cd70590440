import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import type { Currency } from '../../../shared/constants';
import { REFUND_REASON_MAX } from '../../../shared/dashboard';
import { BILLING_FIELD_LABELS, formatSubunits } from '../../../shared/money';
import { ORDER_EVENT_LABELS, type OrderEventKind, orderEventFacts } from '../../../shared/orders';
import { adminApi, problem } from './api';
import { ArrowLeft } from './icons';
import { LicensesPanel } from './LicensesPanel';
import {
  Button,
  Card,
  ErrorText,
  Field,
  formatDateTime,
  ScreenTitle,
  StatusBadge,
  useScreenTitle,
} from './ui';
import { useAdminData, useRecordId } from './useAdminData';

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 py-1 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** What an event recorded, labelled for people (the raw detail is in `orders show --json`). */
function EventFacts({ detail, currency }: { detail: unknown; currency: Currency }) {
  const facts = orderEventFacts(detail, currency);
  if (facts.length === 0) return null;
  return (
    <dl className="mt-1 space-y-0.5 text-slate-700">
      {facts.map((fact) => (
        <div key={fact.label} className="flex flex-wrap gap-x-1.5">
          <dt className="text-slate-600">{fact.label}:</dt>
          <dd className="min-w-0 wrap-anywhere">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Refund: a reason, a fresh code from the authenticator app, and a second, explicit click. */
function RefundPanel({
  orderId,
  amount,
  onDone,
}: {
  orderId: string;
  amount: string;
  onDone: (message: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!open) {
    return (
      <Button variant="danger" onClick={() => setOpen(true)}>
        Refund…
      </Button>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone((await adminApi.refund(orderId, { reason, code })).message);
    } catch (failure) {
      setError(problem(failure));
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={submit}
      className="w-full space-y-3 rounded-lg border border-red-200 bg-red-50 p-4"
      aria-label="Refund this order"
    >
      <p className="text-sm text-red-900">
        The buyer gets {amount} back through Razorpay, loses the tool and is told by email. This cannot be
        undone.
      </p>
      <div>
        <label htmlFor="refund-reason" className="mb-1.5 block text-sm font-medium text-slate-800">
          Reason (for the records)
        </label>
        <textarea
          id="refund-reason"
          required
          maxLength={REFUND_REASON_MAX}
          rows={3}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
        />
      </div>
      <Field
        id="refund-code"
        label="Code from your authenticator app"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        required
        value={code}
        onValueChange={setCode}
      />
      <ErrorText message={error} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" busy={busy}>
          Refund {amount}
        </Button>
        <Button variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** One order: buyer, billing, amount, the events timeline, the emails it caused, and its actions. */
export function OrderScreen() {
  const id = useRecordId();
  useScreenTitle('Order');
  const { data: order, error, reload } = useAdminData(() => adminApi.order(id), id);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);

  return (
    <>
      <Link
        to="/admin/orders"
        className="mb-3 inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline underline-offset-2"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Orders
      </Link>
      <ScreenTitle title={order ? `Order ${order.razorpayPaymentId ?? order.razorpayOrderId}` : 'Order'} />
      <ErrorText message={error} />
      {notice && (
        <p role="status" className="mb-4 rounded-lg bg-green-50 px-4 py-3 text-sm text-green-900">
          {notice}
        </p>
      )}
      {order && (
        <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
          <Card title="Summary">
            <dl>
              <Detail label="Status">
                <StatusBadge status={order.status} />
              </Detail>
              <Detail label="Amount">{formatSubunits(order.amount, order.currency)}</Detail>
              <Detail label="Tool">{order.tool}</Detail>
              <Detail label="Buyer">
                {order.customerName} ·{' '}
                <a href={`mailto:${order.email}`} className="text-brand-700 underline underline-offset-2">
                  {order.email}
                </a>
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
                      setNotice((await adminApi.resend(order.id)).message);
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
                <RefundPanel
                  orderId={order.id}
                  amount={formatSubunits(order.amount, order.currency)}
                  onDone={(message) => {
                    setNotice(message);
                    reload();
                  }}
                />
              </div>
            )}
            <ErrorText message={actionError} />
          </Card>
          <LicensesPanel
            licenses={order.licenses}
            onChanged={(message) => {
              setNotice(message);
              reload();
            }}
          />
          <Card title="Tax documents">
            {order.invoice || order.creditNote ? (
              <dl>
                {order.invoice && (
                  <Detail label="Invoice">
                    <a
                      href={order.invoice.pdfUrl}
                      target="_blank"
                      rel="noreferrer"
                      className="font-medium text-brand-700 underline underline-offset-2"
                    >
                      {order.invoice.number} (PDF)
                    </a>{' '}
                    · {formatDateTime(order.invoice.issuedAt)}
                  </Detail>
                )}
                {order.creditNote && (
                  <Detail label="Credit note">
                    <a
                      href={order.creditNote.pdfUrl}
                      target="_blank"
                      rel="noreferrer"
                      className="font-medium text-brand-700 underline underline-offset-2"
                    >
                      {order.creditNote.number} (PDF)
                    </a>{' '}
                    · {formatDateTime(order.creditNote.issuedAt)}
                  </Detail>
                )}
              </dl>
            ) : (
              <p className="text-sm text-slate-600">No invoice: the order was not paid.</p>
            )}
          </Card>
          <Card title="Billing">
            <dl>
              {Object.entries(BILLING_FIELD_LABELS).map(([field, label]) => (
                <Detail key={field} label={label}>
                  {String(order.billing[field] ?? '') || '—'}
                </Detail>
              ))}
            </dl>
          </Card>
          <Card title="Events">
            <ol className="space-y-2 border-l-2 border-slate-200 pl-4 text-sm">
              {order.events.map((event) => (
                <li key={event.id}>
                  <p className="font-medium text-slate-900">
                    {ORDER_EVENT_LABELS[event.kind as OrderEventKind] ?? event.kind}
                  </p>
                  <p className="text-slate-600">
                    <time dateTime={event.createdAt}>{formatDateTime(event.createdAt)}</time>
                  </p>
                  <EventFacts detail={event.detail} currency={order.currency} />
                </li>
              ))}
            </ol>
          </Card>
          <Card title="Emails">
            {order.emails.length === 0 ? (
              <p className="text-sm text-slate-600">No emails for this order.</p>
            ) : (
              <ul className="space-y-2 text-sm">
                {order.emails.map((mail) => (
                  <li key={mail.id} className="flex flex-wrap items-baseline gap-2">
                    <StatusBadge status={mail.status} />
                    <span className="font-medium text-slate-900">{mail.subject}</span>
                    <span className="text-slate-600">{formatDateTime(mail.sentAt ?? mail.createdAt)}</span>
                    {mail.lastError && <span className="w-full text-red-700">{mail.lastError}</span>}
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      )}
    </>
  );
}
