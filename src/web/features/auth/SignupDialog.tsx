import { ArrowLeft, MailCheck } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import {
  AUTH_MESSAGES,
  type AuthUser,
  phoneDigits,
  type SignupDetails,
  type SignupField,
  validateSignupCode,
  validateSignupDetails,
} from '../../../shared/auth';
import {
  NOTICE_HIDE_MS,
  RESEND_COUNTDOWN_S,
  SIGNUP_CODE_LENGTH,
  SIGNUP_SUCCESS_RELOAD_MS,
} from '../../../shared/constants';
import { type CountryCode, DEFAULT_COUNTRY } from '../../../shared/country-codes';
import { Modal } from '../../components/Modal';
import { authApi, errorField, errorText } from './api';
import { CountryCodePicker } from './CountryCodePicker';
import {
  CloseButton,
  errorId,
  FieldError,
  inputClass,
  linkButtonClass,
  Notice,
  PasswordField,
  PrimaryButton,
  TextField,
} from './fields';

type Step = 'details' | 'verify';
type Issue = { field: SignupField | 'otp' | 'form'; message: string } | null;

const STEP_FIELDS: readonly SignupField[] = ['name', 'email', 'phone', 'password', 'confirmPassword'];

/** "m:ss", as the resend countdown shows it (spec §4). */
export const formatCountdown = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * The Signup dialog (spec §2, §4, §5, §8): 'Create an Account' checked in the §5 order, then 'Verify Your Email' with
 * the emailed 4-digit code, a 120 s resend countdown, and a reload 2 s after a successful registration.
 */
export function SignupDialog({
  open,
  onClose,
  onLogin,
  onLoggedIn,
}: {
  open: boolean;
  onClose: () => void;
  onLogin: () => void;
  onLoggedIn: (user: AuthUser) => void;
}) {
  const [step, setStep] = useState<Step>('details');
  useEffect(() => {
    if (!open) setStep('details');
  }, [open]);
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={step === 'details' ? 'Create an Account' : 'Verify Your Email'}
      className="max-w-lg"
    >
      <SignupFlow step={step} setStep={setStep} onClose={onClose} onLogin={onLogin} onLoggedIn={onLoggedIn} />
    </Modal>
  );
}

function SignupFlow({
  step,
  setStep,
  onClose,
  onLogin,
  onLoggedIn,
}: {
  step: Step;
  setStep: (step: Step) => void;
  onClose: () => void;
  onLogin: () => void;
  onLoggedIn: (user: AuthUser) => void;
}) {
  const id = useId();
  const fieldId = (field: string) => `${id}-${field}`;
  const [details, setDetails] = useState<Omit<SignupDetails, 'dialCode'>>({
    name: '',
    email: '',
    phone: '',
    password: '',
    confirmPassword: '',
  });
  const [country, setCountry] = useState<CountryCode>(DEFAULT_COUNTRY);
  const [code, setCode] = useState('');
  const [issue, setIssue] = useState<Issue>(null);
  const [sentNotice, setSentNotice] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState<'send' | 'resend' | 'complete' | null>(null);
  const [resendAt, setResendAt] = useState(0);
  const [secondsLeft, setSecondsLeft] = useState(0);
  const noticeTimer = useRef<number | undefined>(undefined);
  const reloadTimer = useRef<number | undefined>(undefined);
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(
    () => () => {
      window.clearTimeout(noticeTimer.current);
      window.clearTimeout(reloadTimer.current);
    },
    [],
  );

  // The countdown follows the clock, not the number of ticks, so a throttled background tab still shows the truth.
  useEffect(() => {
    if (!resendAt) return;
    const tick = () => setSecondsLeft(Math.max(0, Math.ceil((resendAt - Date.now()) / 1000)));
    tick();
    const timer = window.setInterval(tick, 250);
    return () => window.clearInterval(timer);
  }, [resendAt]);

  const set = (field: keyof typeof details) => (value: string) => {
    setDetails((current) => ({ ...current, [field]: value }));
    if (issue?.field === field) setIssue(null);
  };

  // Focus moves after React has rendered the field asked for (it may belong to the step being switched to).
  const pendingFocus = useRef<string | null>(null);
  useEffect(() => {
    if (!pendingFocus.current) return;
    document.getElementById(pendingFocus.current)?.focus();
    pendingFocus.current = null;
  });
  const focusField = (field: string) => {
    pendingFocus.current = fieldId(field);
  };

  const codeSent = () => {
    setResendAt(Date.now() + RESEND_COUNTDOWN_S * 1000);
    setSecondsLeft(RESEND_COUNTDOWN_S);
    setSentNotice(AUTH_MESSAGES.signupCodeSentTo(details.email.trim()));
    window.clearTimeout(noticeTimer.current);
    noticeTimer.current = window.setTimeout(() => setSentNotice(null), NOTICE_HIDE_MS);
  };

  const sendCode = async (kind: 'send' | 'resend') => {
    setBusy(kind);
    setIssue(null);
    try {
      await authApi.sendSignupCode(details.name.trim(), details.email.trim());
      codeSent();
      return true;
    } catch (error) {
      const fallback = kind === 'send' ? AUTH_MESSAGES.signupSendFailed : AUTH_MESSAGES.signupResendFailed;
      const field = errorField(error);
      const known = STEP_FIELDS.find((candidate) => candidate === field);
      setIssue({ field: kind === 'send' && known ? known : 'form', message: errorText(error, fallback) });
      if (kind === 'send' && known) focusField(known);
      return false;
    } finally {
      setBusy(null);
    }
  };

  const onDetails = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = validateSignupDetails({ ...details, dialCode: country.code });
    if (problem) {
      setIssue(problem);
      focusField(problem.field);
      return;
    }
    void sendCode('send').then((sent) => {
      if (!sent) return;
      setCode('');
      setStep('verify');
      focusField('otp');
    });
  };

  const onComplete = (event: FormEvent) => {
    event.preventDefault();
    if (busy || success) return;
    const problem = validateSignupCode(code);
    if (problem) {
      setIssue({ field: 'otp', message: problem });
      codeRef.current?.focus();
      return;
    }
    setBusy('complete');
    setIssue(null);
    authApi
      .completeSignup({
        name: details.name.trim(),
        email: details.email.trim(),
        phone: `${country.code}${phoneDigits(details.phone)}`,
        password: details.password,
        otp: code,
      })
      .then((result) => {
        setSuccess(AUTH_MESSAGES.signupSuccess);
        onLoggedIn(result.user);
        reloadTimer.current = window.setTimeout(() => window.location.reload(), SIGNUP_SUCCESS_RELOAD_MS);
      })
      .catch((error: unknown) => {
        const message = errorText(error, AUTH_MESSAGES.signupFailed);
        const field = STEP_FIELDS.find((candidate) => candidate === errorField(error));
        if (field) {
          // A detail the server refused (say, a common password): fix it on step 1; the code stays valid.
          setStep('details');
          setIssue({ field, message });
          focusField(field);
        } else {
          setIssue({ field: errorField(error) === 'otp' ? 'otp' : 'form', message });
        }
      })
      .finally(() => setBusy(null));
  };

  const errorFor = (field: SignupField | 'otp') => (issue?.field === field ? issue.message : null);
  const formError = issue?.field === 'form' ? <Notice tone="error">{issue.message}</Notice> : null;

  if (step === 'details') {
    const phoneError = errorFor('phone');
    return (
      <form onSubmit={onDetails} noValidate className="space-y-4">
        <p className="-mt-2 text-sm text-slate-600">
          Register to buy utility tools. We'll email you a {SIGNUP_CODE_LENGTH}-digit code to confirm your
          address.
        </p>
        <TextField
          id={fieldId('name')}
          label="Full Name"
          autoComplete="name"
          value={details.name}
          onValueChange={set('name')}
          error={errorFor('name')}
          maxLength={200}
        />
        <TextField
          id={fieldId('email')}
          label="Email"
          type="email"
          autoComplete="email"
          value={details.email}
          onValueChange={set('email')}
          error={errorFor('email')}
          maxLength={254}
        />
        <div>
          <label htmlFor={fieldId('phone')} className="mb-1.5 block text-sm font-medium text-slate-800">
            Phone
          </label>
          <div className="relative flex">
            <CountryCodePicker
              value={country}
              onChange={(entry) => {
                setCountry(entry);
                if (issue?.field === 'phone') setIssue(null);
              }}
              invalid={Boolean(phoneError)}
            />
            <input
              id={fieldId('phone')}
              type="tel"
              inputMode="numeric"
              autoComplete="tel-national"
              value={details.phone}
              onChange={(event) => set('phone')(event.target.value)}
              aria-invalid={phoneError ? true : undefined}
              aria-describedby={phoneError ? errorId(fieldId('phone')) : undefined}
              maxLength={20}
              className={`${inputClass(Boolean(phoneError))} min-w-0 rounded-l-none`}
            />
          </div>
          <FieldError id={fieldId('phone')} message={phoneError} />
        </div>
        <PasswordField
          id={fieldId('password')}
          label="Password"
          autoComplete="new-password"
          value={details.password}
          onValueChange={set('password')}
          error={errorFor('password')}
        />
        <PasswordField
          id={fieldId('confirmPassword')}
          label="Confirm Password"
          autoComplete="new-password"
          value={details.confirmPassword}
          onValueChange={set('confirmPassword')}
          error={errorFor('confirmPassword')}
        />
        {formError}
        <PrimaryButton busy={busy === 'send'} busyLabel="Sending code...">
          Verify Email
        </PrimaryButton>
        <p className="text-center text-sm text-slate-600">
          Already have an account?{' '}
          <button type="button" className={linkButtonClass} onClick={onLogin}>
            Log in
          </button>
        </p>
        <CloseButton onClose={onClose} />
      </form>
    );
  }

  return (
    <form onSubmit={onComplete} noValidate className="space-y-4">
      <div className="-mt-1 flex items-start gap-3 rounded-lg bg-slate-50 px-3.5 py-3 text-sm text-slate-700">
        <MailCheck className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
        <p>
          Enter the {SIGNUP_CODE_LENGTH}-digit code we sent to{' '}
          <strong className="font-semibold break-words text-slate-900">{details.email.trim()}</strong>.
        </p>
      </div>
      {sentNotice && <Notice tone="success">{sentNotice}</Notice>}
      <TextField
        id={fieldId('otp')}
        inputRef={codeRef}
        label="Verification Code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={SIGNUP_CODE_LENGTH}
        value={code}
        onValueChange={(value) => {
          setCode(value.replace(/\D/g, '').slice(0, SIGNUP_CODE_LENGTH));
          if (issue?.field === 'otp') setIssue(null);
        }}
        error={errorFor('otp')}
        disabled={Boolean(success)}
        inputClassName="text-center text-xl font-semibold tracking-[0.5em] tabular-nums"
      />
      {formError}
      {success && <Notice tone="success">{success}</Notice>}
      <PrimaryButton busy={busy === 'complete'} busyLabel="Creating account..." disabled={Boolean(success)}>
        Complete Signup
      </PrimaryButton>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <button
          type="button"
          onClick={() => {
            setIssue(null);
            setStep('details');
            focusField('name');
          }}
          disabled={Boolean(busy) || Boolean(success)}
          className={`${linkButtonClass} inline-flex items-center gap-1.5`}
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to Signup
        </button>
        <button
          type="button"
          onClick={() => void sendCode('resend')}
          disabled={secondsLeft > 0 || Boolean(busy) || Boolean(success)}
          className={`${linkButtonClass} tabular-nums`}
        >
          {busy === 'resend'
            ? 'Sending...'
            : secondsLeft > 0
              ? `Resend code in ${formatCountdown(secondsLeft)}`
              : 'Resend Code'}
        </button>
      </div>
      <CloseButton onClose={onClose} />
    </form>
  );
}
