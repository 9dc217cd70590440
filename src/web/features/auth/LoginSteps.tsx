import type { ReactNode } from 'react';
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
import type { LoginFlow, LoginView } from './useLoginFlow';

type StepProps = { id: string; flow: LoginFlow };

function FlowNotice({ flow }: { flow: LoginFlow }) {
  return flow.message && <Notice tone={flow.message.tone}>{flow.message.text}</Notice>;
}

/** The email the account signed up with: the first field both of signing in and of asking for a reset code. */
function EmailField({ id, flow }: StepProps) {
  return (
    <TextField
      id={id}
      inputRef={flow.firstFieldRef}
      label="Email"
      type="email"
      required
      autoComplete="email"
      value={flow.values.email}
      onValueChange={flow.set.email}
      maxLength={MAX_LENGTH.email}
    />
  );
}

/** The way back to the step before; held while a request runs and once the password is reset. */
function BackTo({ step, flow, children }: { step: LoginView; flow: LoginFlow; children: ReactNode }) {
  return (
    <div className="text-center">
      <BackButton onClick={() => flow.go(step)} disabled={flow.busy || flow.done}>
        {children}
      </BackButton>
    </div>
  );
}

export function LoginStep({ id, flow, onSignup }: StepProps & { onSignup: () => void }) {
  return (
    <form onSubmit={flow.onLogin} className="space-y-4">
      <EmailField id={`${id}-email`} flow={flow} />
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
      <EmailField id={`${id}-forgot-email`} flow={flow} />
      <FlowNotice flow={flow} />
      <PrimaryButton busy={flow.busy} busyLabel="Sending...">
        Send Verification Code
      </PrimaryButton>
      <BackTo step="login" flow={flow}>
        Back to login
      </BackTo>
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
      <BackTo step="forgot" flow={flow}>
        Back
      </BackTo>
    </form>
  );
}

/** The reset step's two fields; each field's id and error are named as the server names its input. */
const RESET_FIELDS = [
  { field: 'newPassword', label: 'New Password', error: 'password' },
  { field: 'confirmPassword', label: 'Confirm Password', error: 'confirmPassword' },
] as const;

export function ResetStep({ id, flow }: StepProps) {
  return (
    <form onSubmit={flow.onReset} noValidate className="space-y-4">
      <FlowNotice flow={flow} />
      {RESET_FIELDS.map(({ field, label, error }, index) => (
        <PasswordField
          key={field}
          id={`${id}-${error}`}
          inputRef={index === 0 ? flow.firstFieldRef : undefined}
          label={label}
          required
          autoComplete="new-password"
          value={flow.values[field]}
          onValueChange={flow.set[field]}
          error={flow.resetError(error)}
          disabled={flow.done}
        />
      ))}
      <PrimaryButton busy={flow.busy} busyLabel="Resetting..." disabled={flow.done}>
        Reset Password
      </PrimaryButton>
      <BackTo step="verify" flow={flow}>
        Back
      </BackTo>
    </form>
  );
}
