import { type FormEvent, useEffect, useRef, useState } from 'react';
import { AUTH_MESSAGES, type AuthUser, validateNewPassword } from '../../../shared/auth';
import { RESET_SUCCESS_BACK_TO_LOGIN_MS } from '../../../shared/constants';
import { authApi, errorText } from './api';

export type LoginView = 'login' | 'forgot' | 'verify' | 'reset';
export type Message = { tone: 'error' | 'success'; text: string } | null;
type ResetField = 'password' | 'confirmPassword';

/**
 * The state behind the Login dialog (docs/product.md §4, §8): signing in, and the three-step reset — send the code,
 * check it, set the new password — returning to the login step 3 s after a successful reset.
 */
export function useLoginFlow({
  idPrefix,
  setView,
  onClose,
  onLoggedIn,
}: {
  idPrefix: string;
  setView: (view: LoginView) => void;
  onClose: () => void;
  onLoggedIn: (user: AuthUser) => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [fieldError, setFieldError] = useState<{ field: ResetField; message: string } | null>(null);
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

  const go = (next: LoginView, nextMessage: Message = null) => {
    setView(next);
    setMessage(nextMessage);
    setFieldError(null);
    focusFirstField.current = true;
  };

  const run = (event: FormEvent, action: () => Promise<void>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setMessage(null);
    void action().finally(() => setBusy(false));
  };

  const fail = (fallback: string) => (error: unknown) =>
    setMessage({ tone: 'error', text: errorText(error, fallback) });

  const onLogin = (event: FormEvent) =>
    run(event, () =>
      authApi.login({ email: email.trim(), password }).then((result) => {
        onLoggedIn(result.user);
        onClose();
        window.location.reload();
      }, fail(AUTH_MESSAGES.loginFailed)),
    );

  const onForgot = (event: FormEvent) =>
    run(event, () =>
      authApi.forgotPassword({ email: email.trim() }).then((result) => {
        setCode('');
        go('verify', { tone: 'success', text: result?.message || AUTH_MESSAGES.forgotSent });
      }, fail(AUTH_MESSAGES.forgotFailed)),
    );

  const onVerify = (event: FormEvent) =>
    run(event, () =>
      authApi.verifyResetCode({ email: email.trim(), otp: code }).then((result) => {
        setNewPassword('');
        setConfirmPassword('');
        go('reset', { tone: 'success', text: result?.message || AUTH_MESSAGES.verifySuccess });
      }, fail(AUTH_MESSAGES.verifyFailed)),
    );

  const onReset = (event: FormEvent) => {
    event.preventDefault();
    const issue = validateNewPassword(newPassword, confirmPassword);
    setFieldError(issue);
    if (issue) {
      document.getElementById(`${idPrefix}-${issue.field}`)?.focus();
      return;
    }
    run(event, () =>
      authApi.resetPassword({ email: email.trim(), otp: code, password: newPassword }).then((result) => {
        setDone(true);
        setPassword('');
        setMessage({ tone: 'success', text: result?.message || AUTH_MESSAGES.resetSuccess });
        backTimer.current = window.setTimeout(() => {
          setDone(false);
          go('login');
        }, RESET_SUCCESS_BACK_TO_LOGIN_MS);
      }, fail(AUTH_MESSAGES.resetFailed)),
    );
  };

  const resetError = (field: ResetField) => (fieldError?.field === field ? fieldError.message : null);

  return {
    values: { email, password, code, newPassword, confirmPassword },
    set: {
      email: setEmail,
      password: setPassword,
      code: setCode,
      newPassword: setNewPassword,
      confirmPassword: setConfirmPassword,
    },
    message,
    busy,
    done,
    firstFieldRef,
    resetError,
    go,
    onLogin,
    onForgot,
    onVerify,
    onReset,
  };
}

export type LoginFlow = ReturnType<typeof useLoginFlow>;
