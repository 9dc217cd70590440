import { REFUND_REASON_MAX } from '../../../shared/dashboard';
import { Button, FormError, TextAreaField, useForm } from '../../components/form';
import { dashboardApi, problem } from './api';
import { AuthenticatorCodeField } from './fields';

const FIELDS = ['reason', 'code'] as const;
const fieldId = (field: string) => `refund-${field}`;

/** Refund: a reason, a fresh code from the authenticator app, and a second, explicit click. */
export function RefundPanel({
  orderId,
  amount,
  onDone,
  onCancel,
}: {
  orderId: string;
  amount: string;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const form = useForm({ initial: { reason: '', code: '' }, fields: FIELDS, idOf: fieldId });
  const submit = form.submit({
    send: async (values) => onDone((await dashboardApi.refund(orderId, values)).message),
    explain: (failure) => {
      form.set('code', '');
      return problem(failure);
    },
  });
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
      <TextAreaField
        {...form.field('reason')}
        label="Reason (for the records)"
        required
        maxLength={REFUND_REASON_MAX}
        rows={3}
      />
      <AuthenticatorCodeField {...form.field('code')} required />
      <FormError message={form.formError} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" busy={form.busy === 'submit'}>
          Refund {amount}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
