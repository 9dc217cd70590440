import { REFUND_REASON_MAX } from '../../../shared/dashboard';
import { useForm } from '../../components/form';
import { dashboardApi, problem } from './api';
import { DangerForm, ReasonField } from './DangerForm';
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
    <DangerForm
      label="Refund this order"
      warning={`The buyer gets ${amount} back through Razorpay, loses the tool and is told by email. This cannot be undone.`}
      onSubmit={submit}
      form={form}
      submitLabel={`Refund ${amount}`}
      onCancel={onCancel}
      className="w-full"
    >
      <ReasonField {...form.field('reason')} label="Reason (for the records)" maxLength={REFUND_REASON_MAX} />
      <AuthenticatorCodeField {...form.field('code')} required />
    </DangerForm>
  );
}
