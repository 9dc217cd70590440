import { useEffect, useId, useRef, useState } from 'react';
import type { OrderDetail } from '../../../shared/order-detail';
import {
  REFUND_REASON_LABELS,
  REFUND_REQUEST_MESSAGES,
  REFUND_REQUEST_REASONS,
  type RefundRequestReason,
} from '../../../shared/refund-requests';
import { Field, FormError, PrimaryButton, Select, TextAreaField, useForm } from '../../components/form';
import { announce } from '../../lib/announce';
import { ordersApi } from './api';

const REASON_OPTIONS = REFUND_REQUEST_REASONS.map((reason) => REFUND_REASON_LABELS[reason]);
const reasonOf = (label: string) =>
  REFUND_REQUEST_REASONS.find((reason) => REFUND_REASON_LABELS[reason] === label) ?? null;

const STATUS_TEXT = {
  open: 'Open: we reply within 2 working days.',
  approved: 'Approved: refunded (see the credit note).',
  declined: 'Declined.',
} as const;

const FIELDS = ['reason', 'description'] as const;

/**
 * The Refund Policy's exceptions, claimed from the order's page: the requests made so far and what became of them,
 * and, for a paid order without an open one, the form.
 */
export function RefundRequestPanel({ order, onChanged }: { order: OrderDetail; onChanged: () => void }) {
  const prefix = useId();
  const idOf = (field: string) => `${prefix}-${field}`;
  const form = useForm({ initial: { reason: '', description: '' }, fields: FIELDS, idOf });
  const open = order.refundRequests.find((request) => request.status === 'open');
  const canAsk = order.status === 'paid' && !open;
  /** The request just sent: once the order is read again and lists it, it takes focus from the form that went. */
  const [sent, setSent] = useState(false);
  const openRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (!sent || !open) return;
    setSent(false);
    openRef.current?.focus();
  }, [sent, open]);

  const submit = form.submit({
    validate: (values) => ({
      ...(reasonOf(values.reason) ? {} : { reason: REFUND_REQUEST_MESSAGES.reason }),
      ...(values.description.trim().length >= 10 ? {} : { description: REFUND_REQUEST_MESSAGES.description }),
    }),
    send: async (values) => {
      await ordersApi.requestRefund(order.id, {
        reason: reasonOf(values.reason) as RefundRequestReason,
        description: values.description,
      });
      announce('Your refund request was sent. We reply within 2 working days.');
      setSent(true);
      onChanged();
    },
    explain: (failure, onFields) =>
      onFields ? null : failure instanceof Error ? failure.message : 'The request could not be sent.',
  });

  return (
    <section
      aria-label="Refund"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 className="mb-4 text-lg font-semibold text-brand-900">Refund</h2>
      {order.refundRequests.length > 0 && (
        <ul className="mb-4 space-y-3 text-sm">
          {order.refundRequests.map((request) => (
            <li
              key={request.id}
              ref={request.id === open?.id ? openRef : undefined}
              tabIndex={request.id === open?.id ? -1 : undefined}
              className="rounded-lg bg-slate-50 px-3 py-2"
            >
              <p className="font-medium">{REFUND_REASON_LABELS[request.reason]}</p>
              <p>{STATUS_TEXT[request.status]}</p>
              {request.declineReason && <p className="text-slate-700">Reason: {request.declineReason}</p>}
            </li>
          ))}
        </ul>
      )}
      {canAsk ? (
        <form noValidate onSubmit={submit} className="space-y-4">
          <p className="text-sm text-slate-700">
            Our Refund Policy refunds a payment charged twice, a tool that does not work and that we could not
            fix, and money that left your account without a confirmed order.
          </p>
          <Field id={idOf('reason')} label="Why" required error={form.errors.reason}>
            <Select
              id={idOf('reason')}
              aria-required="true"
              value={form.values.reason}
              onValueChange={form.change('reason')}
              options={REASON_OPTIONS}
              placeholder="Choose a reason"
              error={form.errors.reason}
            />
          </Field>
          <TextAreaField
            {...form.field('description')}
            label="What happened"
            hint="At least 10 characters."
            required
            rows={4}
            maxLength={2000}
          />
          <FormError message={form.formError} />
          <PrimaryButton size="inline" busy={form.busy !== null}>
            Ask for a refund
          </PrimaryButton>
        </form>
      ) : (
        order.refundRequests.length === 0 && (
          <p className="text-sm text-slate-600">A refund can be asked for a paid order.</p>
        )
      )}
    </section>
  );
}
