import { useId, useState } from 'react';
import { BILLING_COUNTRY_INDIA, validateBilling } from '../../../shared/billing';
import { correctionDeadlineText } from '../../../shared/billing-correction';
import type { OrderDetail } from '../../../shared/order-detail';
import { IndianBillingFields } from '../../components/billing/IndianBillingFields';
import { FormError, Notice, PrimaryButton, SecondaryButton, useForm } from '../../components/form';
import { Modal } from '../../components/Modal';
import { announce } from '../../lib/announce';
import { ApiError } from '../../lib/api';
import { rememberCorrectedBilling } from '../../lib/purchase-intent';
import { ordersApi } from './api';

const BILLING_CORRECTION_TITLE = 'Add or correct GSTIN and billing address';

const FIELDS = ['address', 'state', 'gstin'] as const;

/**
 * The order page's "Add or correct GSTIN and billing address" (docs/decisions/050-billing-correction.md): a button
 * while the order can still be corrected, the dialog that sends POST /api/orders/:orderId/billing, and the answer
 * (the credit note and the new invoice, which the tax documents list shows once the order is read again).
 */
export function BillingCorrection({ order, onChanged }: { order: OrderDetail; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  return (
    <div className="mt-5 space-y-3">
      {done && <Notice tone="success">{done}</Notice>}
      {order.billingCorrectableUntil && (
        <>
          <SecondaryButton onClick={() => setOpen(true)}>{BILLING_CORRECTION_TITLE}</SecondaryButton>
          <p className="text-sm text-slate-600">
            Possible until {correctionDeadlineText(order.billingCorrectableUntil)}: we cancel the invoice with
            a credit note and issue a new one.
          </p>
        </>
      )}
      <Modal open={open} onClose={() => setOpen(false)} title={BILLING_CORRECTION_TITLE} className="max-w-lg">
        <BillingCorrectionForm
          order={order}
          onCancel={() => setOpen(false)}
          onDone={(message) => {
            setDone(message);
            setOpen(false);
            announce(message);
            onChanged();
          }}
        />
      </Modal>
    </div>
  );
}

function BillingCorrectionForm({
  order,
  onCancel,
  onDone,
}: {
  order: OrderDetail;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const prefix = useId();
  const idOf = (field: string) => `${prefix}-${field}`;
  const form = useForm({
    initial: { address: order.billing.address, state: order.billing.state, gstin: order.billing.gstin },
    fields: FIELDS,
    idOf,
  });
  const { values, errors } = form;

  const submit = form.submit({
    validate: (typed) => validateBilling({ ...typed, country: BILLING_COUNTRY_INDIA, currency: 'INR' }),
    send: async (typed) => {
      const answer = await ordersApi.correctBilling(order.id, typed);
      rememberCorrectedBilling({ ...typed, country: BILLING_COUNTRY_INDIA });
      onDone(answer.message);
    },
    explain: (failure, onFields) =>
      onFields
        ? null
        : ((failure instanceof ApiError ? failure.serverMessage : undefined) ??
          'The billing details could not be corrected. Please try again.'),
  });

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <p className="text-sm text-slate-700">
        We cancel your invoice with a credit note and issue a new invoice with these details, for the same
        amount. Both are emailed to you.
      </p>
      <IndianBillingFields idOf={idOf} values={values} errors={errors} set={form.set} />
      <FormError message={form.formError} />
      <div className="flex flex-col gap-3 pt-2 sm:flex-row sm:justify-end">
        <SecondaryButton onClick={onCancel}>Cancel</SecondaryButton>
        <PrimaryButton size="inline" busy={form.busy !== null}>
          Issue the corrected invoice
        </PrimaryButton>
      </div>
    </form>
  );
}
