import { type FormEvent, useEffect, useRef, useState } from 'react';
import { AUTH_MESSAGES, type AuthUser, validateNewPassword } from '../../../shared/auth';
import { RESET_SUCCESS_BACK_TO_LOGIN_MS } from '../../../shared/constants';
import { useForm } from '../../components/form';
import { authApi, errorText } from './api';

export type LoginView = 'login' | 'forgot' | 'verify' | 'reset';
export type Message = { tone: 'error' | 'success'; text: string } | null;
type LoginValues = {
  email: string;
  password: string;
  code: string;
  newPassword: string;
  confirmPassword: string;
};
const FIELDS = ['email', 'password', 'code', 'newPassword', 'confirmPassword'] as const;

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
  // The reset step's new password has the login step's id: one of the two is on screen at a time.
  const form = useForm<LoginValues, (typeof FIELDS)[number]>({
    initial: { email: '', password: '', code: '', newPassword: '', confirmPassword: '' },
    fields: FIELDS,
    idOf: (field) => `${idPrefix}-${field === 'newPassword' ? 'password' : field}`,
  });
  const { email, password, code, newPassword, confirmPassword } = form.values;
  const [message, setMessage] = useState<Message>(null);
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
    form.setErrors({});
    focusFirstField.current = true;
  };

  /** One step's request: the dialog's message is cleared, then shows the step's failure. */
  const run = (event: FormEvent, action: () => Promise<void>, fallback: string) => {
    event.preventDefault();
    setMessage(null);
    void form.run({
      send: action,
      explain: (error) => {
        setMessage({ tone: 'error', text: errorText(error, fallback) });
        return null;
      },
    });
  };

  const onLogin = (event: FormEvent) =>
    run(
      event,
      () =>
        authApi.login({ email: email.trim(), password }).then((result) => {
          onLoggedIn(result.user);
          onClose();
          window.location.reload();
        }),
      AUTH_MESSAGES.loginFailed,
    );

  const onForgot = (event: FormEvent) =>
    run(
      event,
      () =>
        authApi.forgotPassword({ email: email.trim() }).then((result) => {
          form.set('code', '');
          go('verify', { tone: 'success', text: result?.message || AUTH_MESSAGES.forgotSent });
        }),
      AUTH_MESSAGES.forgotFailed,
    );

  const onVerify = (event: FormEvent) =>
    run(
      event,
      () =>
        authApi.verifyResetCode({ email: email.trim(), otp: code }).then((result) => {
          form.set('newPassword', '');
          form.set('confirmPassword', '');
          go('reset', { tone: 'success', text: result?.message || AUTH_MESSAGES.verifySuccess });
        }),
      AUTH_MESSAGES.verifyFailed,
    );

  const onReset = (event: FormEvent) => {
    event.preventDefault();
    const issue = validateNewPassword(newPassword, confirmPassword);
    if (issue) {
      form.setErrors({ [issue.field === 'password' ? 'newPassword' : issue.field]: issue.message });
      return;
    }
    run(
      event,
      () =>
        authApi.resetPassword({ email: email.trim(), otp: code, password: newPassword }).then((result) => {
          setDone(true);
          form.set('password', '');
          setMessage({ tone: 'success', text: result?.message || AUTH_MESSAGES.resetSuccess });
          backTimer.current = window.setTimeout(() => {
            setDone(false);
            go('login');
          }, RESET_SUCCESS_BACK_TO_LOGIN_MS);
        }),
      AUTH_MESSAGES.resetFailed,
    );
  };

  const resetError = (field: 'password' | 'confirmPassword') =>
    form.errorFor(field === 'password' ? 'newPassword' : field);

  return {
    values: form.values,
    set: {
      email: form.change('email'),
      password: form.change('password'),
      code: form.change('code'),
      newPassword: form.change('newPassword'),
      confirmPassword: form.change('confirmPassword'),
    },
    message,
    busy: form.busy !== null,
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
