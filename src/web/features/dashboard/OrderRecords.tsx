import type { ReactNode } from 'react';
import type { Currency } from '../../../shared/constants';
import type { AdminOrderDetail } from '../../../shared/dashboard';
import { BILLING_FIELD_LABELS } from '../../../shared/money';
import { ORDER_EVENT_LABELS, type OrderEventKind, orderEventFacts } from '../../../shared/orders';
import { Card, formatDateTime, StatusBadge } from './ui';

export function Detail({ label, children }: { label: string; children: ReactNode }) {
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

/** One tax document: its number linking to the PDF, and when it was issued. */
function TaxDocument({
  label,
  document,
}: {
  label: string;
  document: { pdfUrl: string; number: string; issuedAt: string };
}) {
  return (
    <Detail label={label}>
      <a
        href={document.pdfUrl}
        target="_blank"
        rel="noreferrer"
        className="font-medium text-brand-700 underline underline-offset-2"
      >
        {document.number} (PDF)
      </a>{' '}
      · {formatDateTime(document.issuedAt)}
    </Detail>
  );
}

/** What an order left behind: its tax documents, billing details, events and emails. */
export function OrderRecords({ order }: { order: AdminOrderDetail }) {
  return (
    <>
      <Card title="Tax documents">
        {order.invoice || order.creditNote ? (
          <dl>
            {order.invoice && <TaxDocument label="Invoice" document={order.invoice} />}
            {order.creditNote && <TaxDocument label="Credit note" document={order.creditNote} />}
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
    </>
  );
}
