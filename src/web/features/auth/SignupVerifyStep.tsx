import { MailCheck } from 'lucide';
import { SIGNUP_CODE_LENGTH } from '../../../shared/constants';
import {
  BackButton,
  CloseButton,
  linkButtonClass,
  Notice,
  PrimaryButton,
  TextField,
} from '../../components/form';
import { Icon } from '../../components/Icon';
import { formatCountdown } from './useCountdown';
import type { SignupFlow } from './useSignupFlow';

/** Step 2, 'Verify Your Email': the emailed code, the resend countdown and the way back to step 1. */
export function SignupVerifyStep({
  flow,
  fieldId,
  onClose,
}: {
  flow: SignupFlow;
  fieldId: (field: string) => string;
  onClose: () => void;
}) {
  const finished = Boolean(flow.success);
  return (
    <form onSubmit={flow.onComplete} noValidate className="space-y-4">
      <div className="-mt-1 flex items-start gap-3 rounded-lg bg-slate-50 px-3.5 py-3 text-sm text-slate-700">
        <Icon node={MailCheck} className="mt-0.5 size-5 shrink-0 text-brand-700" />
        <p>
          Enter the {SIGNUP_CODE_LENGTH}-digit code we sent to{' '}
          <strong className="font-semibold break-words text-slate-900">{flow.details.email.trim()}</strong>.
        </p>
      </div>
      {flow.sentNotice && <Notice tone="success">{flow.sentNotice}</Notice>}
      <TextField
        id={fieldId('otp')}
        label="Verification Code"
        required
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={SIGNUP_CODE_LENGTH}
        value={flow.code}
        onValueChange={(value) => flow.typeCode(value.replace(/\D/g, '').slice(0, SIGNUP_CODE_LENGTH))}
        error={flow.errorFor('otp')}
        disabled={finished}
        inputClassName="text-center text-xl font-semibold tracking-[0.5em] tabular-nums"
      />
      {flow.formError && <Notice tone="error">{flow.formError}</Notice>}
      {flow.success && <Notice tone="success">{flow.success}</Notice>}
      <PrimaryButton busy={flow.busy === 'complete'} busyLabel="Creating account..." disabled={finished}>
        Complete Signup
      </PrimaryButton>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <BackButton onClick={flow.backToDetails} disabled={Boolean(flow.busy) || finished}>
          Back to Signup
        </BackButton>
        <button
          type="button"
          onClick={flow.resend}
          disabled={flow.secondsLeft > 0 || Boolean(flow.busy) || finished}
          className={`${linkButtonClass} tabular-nums`}
        >
          {flow.busy === 'resend'
            ? 'Sending...'
            : flow.secondsLeft > 0
              ? `Resend code in ${formatCountdown(flow.secondsLeft)}`
              : 'Resend Code'}
        </button>
      </div>
      <CloseButton onClose={onClose} />
    </form>
  );
}
