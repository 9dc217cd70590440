import { RESET_CODE_LENGTH } from '../../../shared/constants';
import { MAX_LENGTH } from '../../../shared/limits';
import {
  BackButton,
  linkButtonClass,
  Notice,
  PasswordField,
  PrimaryButton,
  TextField,
} from '../../components/form';
import type { LoginFlow } from './useLoginFlow';

type StepProps = { id: string; flow: LoginFlow };

function FlowNotice({ flow }: { flow: LoginFlow }) {
  return flow.message && <Notice tone={flow.message.tone}>{flow.message.text}</Notice>;
}

export function LoginStep({ id, flow, onSignup }: StepProps & { onSignup: () => void }) {
  return (
    <form onSubmit={flow.onLogin} className="space-y-4">
      <TextField
        id={`${id}-email`}
        inputRef={flow.firstFieldRef}
        label="Email"
        type="email"
        required
        autoComplete="email"
        value={flow.values.email}
        onValueChange={flow.set.email}
        maxLength={MAX_LENGTH.email}
      />
      <div>
        <PasswordField
          id={`${id}-password`}
          label="Password"
          required
          autoComplete="current-password"
          value={flow.values.password}
          onValueChange={flow.set.password}
        />
        <div className="mt-2 text-right">
          <button
            type="button"
            className={`${linkButtonClass} text-sm`}
            onClick={() => flow.go('forgot')}
            disabled={flow.busy}
          >
            Forgot password?
          </button>
        </div>
      </div>
      <FlowNotice flow={flow} />
      <PrimaryButton busy={flow.busy} busyLabel="Signing in...">
        Sign In
      </PrimaryButton>
      <p className="text-center text-sm text-slate-600">
        Don't have an account?{' '}
        <button type="button" className={linkButtonClass} onClick={onSignup}>
          Sign up
        </button>
      </p>
    </form>
  );
}

export function ForgotStep({ id, flow }: StepProps) {
  return (
    <form onSubmit={flow.onForgot} className="space-y-4">
      <p className="-mt-2 text-sm text-slate-600">
        Enter the email you signed up with and we'll send you a {RESET_CODE_LENGTH}-digit verification code.
      </p>
      <TextField
        id={`${id}-forgot-email`}
        inputRef={flow.firstFieldRef}
        label="Email"
        type="email"
        required
        autoComplete="email"
        value={flow.values.email}
        onValueChange={flow.set.email}
        maxLength={MAX_LENGTH.email}
      />
      <FlowNotice flow={flow} />
      <PrimaryButton busy={flow.busy} busyLabel="Sending...">
        Send Verification Code
      </PrimaryButton>
      <div className="text-center">
        <BackButton onClick={() => flow.go('login')} disabled={flow.busy || flow.done}>
          Back to login
        </BackButton>
      </div>
    </form>
  );
}

export function VerifyStep({ id, flow }: StepProps) {
  return (
    <form onSubmit={flow.onVerify} className="space-y-4">
      <FlowNotice flow={flow} />
      <TextField
        id={`${id}-code`}
        inputRef={flow.firstFieldRef}
        label="Verification Code"
        hint={`Enter ${RESET_CODE_LENGTH}-digit code`}
        required
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern={`\\d{${RESET_CODE_LENGTH}}`}
        maxLength={RESET_CODE_LENGTH}
        value={flow.values.code}
        onValueChange={(value) => flow.set.code(value.replace(/\D/g, '').slice(0, RESET_CODE_LENGTH))}
        inputClassName="tracking-[0.3em]"
      />
      <PrimaryButton busy={flow.busy} busyLabel="Verifying...">
        Verify Code
      </PrimaryButton>
      <div className="text-center">
        <BackButton onClick={() => flow.go('forgot')} disabled={flow.busy || flow.done}>
          Back
        </BackButton>
      </div>
    </form>
  );
}

export function ResetStep({ id, flow }: StepProps) {
  return (
    <form onSubmit={flow.onReset} noValidate className="space-y-4">
      <FlowNotice flow={flow} />
      <PasswordField
        id={`${id}-password`}
        inputRef={flow.firstFieldRef}
        label="New Password"
        required
        autoComplete="new-password"
        value={flow.values.newPassword}
        onValueChange={flow.set.newPassword}
        error={flow.resetError('password')}
        disabled={flow.done}
      />
      <PasswordField
        id={`${id}-confirmPassword`}
        label="Confirm Password"
        required
        autoComplete="new-password"
        value={flow.values.confirmPassword}
        onValueChange={flow.set.confirmPassword}
        error={flow.resetError('confirmPassword')}
        disabled={flow.done}
      />
      <PrimaryButton busy={flow.busy} busyLabel="Resetting..." disabled={flow.done}>
        Reset Password
      </PrimaryButton>
      <div className="text-center">
        <BackButton onClick={() => flow.go('verify')} disabled={flow.busy || flow.done}>
          Back
        </BackButton>
      </div>
    </form>
  );
}
