import { ArrowLeft } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { AUTH_MESSAGES, type AuthUser, validateNewPassword } from '../../../shared/auth';
import { RESET_CODE_LENGTH, RESET_SUCCESS_BACK_TO_LOGIN_MS } from '../../../shared/constants';
import { Modal } from '../../components/Modal';
import { authApi, errorText } from './api';
import { CloseButton, linkButtonClass, Notice, PasswordField, PrimaryButton, TextField } from './fields';

type View = 'login' | 'forgot' | 'verify' | 'reset';

const TITLES: Record<View, string> = {
  login: 'Welcome Back',
  forgot: 'Forgot Password',
  verify: 'Verify Code',
  reset: 'Reset Password',
};

type Message = { tone: 'error' | 'success'; text: string } | null;

/**
 * The Login dialog and its forgot-password flow (spec §2, §4, §8): Welcome Back → Forgot Password → Verify Code →
 * Reset Password, and back to login 3 s after a successful reset.
 */
export function LoginDialog({
  open,
  onClose,
  onSignup,
  onLoggedIn,
}: {
  open: boolean;
  onClose: () => void;
  onSignup: () => void;
  onLoggedIn: (user: AuthUser) => void;
}) {
  const [view, setView] = useState<View>('login');
  // Every opening starts at the login step.
  useEffect(() => {
    if (!open) setView('login');
  }, [open]);
  return (
    <Modal open={open} onClose={onClose} title={TITLES[view]}>
      <LoginFlow
        view={view}
        setView={setView}
        onClose={onClose}
        onSignup={onSignup}
        onLoggedIn={onLoggedIn}
      />
    </Modal>
  );
}

function LoginFlow({
  view,
  setView,
  onClose,
  onSignup,
  onLoggedIn,
}: {
  view: View;
  setView: (view: View) => void;
  onClose: () => void;
  onSignup: () => void;
  onLoggedIn: (user: AuthUser) => void;
}) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [fieldError, setFieldError] = useState<{
    field: 'password' | 'confirmPassword';
    message: string;
  } | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const backTimer = useRef<number | undefined>(undefined);
  const firstFieldRef = useRef<HTMLInputElement>(null);

  useEffect(() => () => window.clearTimeout(backTimer.current), []);

  // After a step change, once React has rendered it, its first field takes focus: keyboard and screen reader
  // users land where they type next.
  const focusFirstField = useRef(false);
  useEffect(() => {
    if (!focusFirstField.current) return;
    focusFirstField.current = false;
    firstFieldRef.current?.focus();
  });

  const go = (next: View, nextMessage: Message = null) => {
    setView(next);
    setMessage(nextMessage);
    setFieldError(null);
    focusFirstField.current = true;
  };

  const run = async (action: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };

  const onLogin = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      try {
        const result = await authApi.login(email.trim(), password);
        onLoggedIn(result.user);
        onClose();
        window.location.reload();
      } catch (error) {
        setMessage({ tone: 'error', text: errorText(error, AUTH_MESSAGES.loginFailed) });
      }
    });
  };

  const onForgot = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      try {
        const result = await authApi.forgotPassword(email.trim());
        setCode('');
        go('verify', { tone: 'success', text: result?.message || AUTH_MESSAGES.forgotSent });
      } catch (error) {
        setMessage({ tone: 'error', text: errorText(error, AUTH_MESSAGES.forgotFailed) });
      }
    });
  };

  const onVerify = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      try {
        const result = await authApi.verifyResetCode(email.trim(), code);
        setNewPassword('');
        setConfirmPassword('');
        go('reset', { tone: 'success', text: result?.message || AUTH_MESSAGES.verifySuccess });
      } catch (error) {
        setMessage({ tone: 'error', text: errorText(error, AUTH_MESSAGES.verifyFailed) });
      }
    });
  };

  const onReset = (event: FormEvent) => {
    event.preventDefault();
    const issue = validateNewPassword(newPassword, confirmPassword);
    setFieldError(issue);
    if (issue) {
      document.getElementById(`${id}-${issue.field}`)?.focus();
      return;
    }
    void run(async () => {
      try {
        const result = await authApi.resetPassword(email.trim(), code, newPassword);
        setDone(true);
        setPassword('');
        setMessage({ tone: 'success', text: result?.message || AUTH_MESSAGES.resetSuccess });
        backTimer.current = window.setTimeout(() => {
          setDone(false);
          go('login');
        }, RESET_SUCCESS_BACK_TO_LOGIN_MS);
      } catch (error) {
        setMessage({ tone: 'error', text: errorText(error, AUTH_MESSAGES.resetFailed) });
      }
    });
  };

  const notice = message && <Notice tone={message.tone}>{message.text}</Notice>;

  const backButton = (to: View, label: string) => (
    <button
      type="button"
      onClick={() => go(to)}
      disabled={busy || done}
      className={`${linkButtonClass} inline-flex items-center gap-1.5 text-sm`}
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      {label}
    </button>
  );

  return (
    <>
      {view === 'login' && (
        <form onSubmit={onLogin} className="space-y-4">
          <p className="-mt-2 text-sm text-slate-600">Sign in to buy tools and see the ones you own.</p>
          <TextField
            id={`${id}-email`}
            inputRef={firstFieldRef}
            label="Email"
            type="email"
            required
            autoComplete="email"
            value={email}
            onValueChange={setEmail}
            maxLength={254}
          />
          <div>
            <PasswordField
              id={`${id}-password`}
              label="Password"
              required
              autoComplete="current-password"
              value={password}
              onValueChange={setPassword}
            />
            <div className="mt-2 text-right">
              <button
                type="button"
                className={`${linkButtonClass} text-sm`}
                onClick={() => go('forgot')}
                disabled={busy}
              >
                Forgot password?
              </button>
            </div>
          </div>
          {notice}
          <PrimaryButton busy={busy} busyLabel="Signing in...">
            Sign In
          </PrimaryButton>
          <p className="text-center text-sm text-slate-600">
            Don't have an account?{' '}
            <button type="button" className={linkButtonClass} onClick={onSignup}>
              Sign up
            </button>
          </p>
        </form>
      )}

      {view === 'forgot' && (
        <form onSubmit={onForgot} className="space-y-4">
          <p className="-mt-2 text-sm text-slate-600">
            Enter the email you signed up with and we'll send you a {RESET_CODE_LENGTH}-digit verification
            code.
          </p>
          <TextField
            id={`${id}-forgot-email`}
            inputRef={firstFieldRef}
            label="Email"
            type="email"
            required
            autoComplete="email"
            value={email}
            onValueChange={setEmail}
            maxLength={254}
          />
          {notice}
          <PrimaryButton busy={busy} busyLabel="Sending...">
            Send Verification Code
          </PrimaryButton>
          <div className="text-center">{backButton('login', 'Back to login')}</div>
        </form>
      )}

      {view === 'verify' && (
        <form onSubmit={onVerify} className="space-y-4">
          {notice}
          <TextField
            id={`${id}-code`}
            inputRef={firstFieldRef}
            label="Verification Code"
            hint={`Enter ${RESET_CODE_LENGTH}-digit code`}
            required
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern={`\\d{${RESET_CODE_LENGTH}}`}
            maxLength={RESET_CODE_LENGTH}
            value={code}
            onValueChange={(value) => setCode(value.replace(/\D/g, '').slice(0, RESET_CODE_LENGTH))}
            inputClassName="tracking-[0.3em]"
          />
          <PrimaryButton busy={busy} busyLabel="Verifying...">
            Verify Code
          </PrimaryButton>
          <div className="text-center">{backButton('forgot', 'Back')}</div>
        </form>
      )}

      {view === 'reset' && (
        <form onSubmit={onReset} noValidate className="space-y-4">
          {notice}
          <PasswordField
            id={`${id}-password`}
            inputRef={firstFieldRef}
            label="New Password"
            required
            autoComplete="new-password"
            value={newPassword}
            onValueChange={setNewPassword}
            error={fieldError?.field === 'password' ? fieldError.message : null}
            disabled={done}
          />
          <PasswordField
            id={`${id}-confirmPassword`}
            label="Confirm Password"
            required
            autoComplete="new-password"
            value={confirmPassword}
            onValueChange={setConfirmPassword}
            error={fieldError?.field === 'confirmPassword' ? fieldError.message : null}
            disabled={done}
          />
          <PrimaryButton busy={busy} busyLabel="Resetting..." disabled={done}>
            Reset Password
          </PrimaryButton>
          <div className="text-center">{backButton('verify', 'Back')}</div>
        </form>
      )}
      <CloseButton onClose={onClose} />
    </>
  );
}
