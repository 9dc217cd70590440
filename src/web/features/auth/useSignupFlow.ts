import { type FormEvent, useEffect, useRef, useState } from 'react';
import {
  AUTH_MESSAGES,
  type AuthUser,
  phoneDigits,
  type SignupDetails,
  type SignupField,
  validateSignupCode,
  validateSignupDetails,
} from '../../../shared/auth';
import { NOTICE_HIDE_MS, RESEND_COUNTDOWN_S, SIGNUP_SUCCESS_RELOAD_MS } from '../../../shared/constants';
import { type CountryCode, DEFAULT_COUNTRY } from '../../../shared/country-codes';
import { authApi, errorField, errorText } from './api';
import { useCountdown } from './useCountdown';

export type SignupStep = 'details' | 'verify';
type Issue = { field: SignupField | 'otp' | 'form'; message: string } | null;

const STEP_FIELDS: readonly SignupField[] = ['name', 'email', 'phone', 'password', 'confirmPassword'];

/**
 * The state behind the Signup dialog (docs/product.md §4, §5, §8): the details checked in the §5 order, the emailed
 * code with a 120 s resend countdown and a 3 s notice, and a reload 2 s after a successful registration.
 */
export function useSignupFlow({
  fieldId,
  setStep,
  onLoggedIn,
}: {
  fieldId: (field: string) => string;
  setStep: (step: SignupStep) => void;
  onLoggedIn: (user: AuthUser) => void;
}) {
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
  const countdown = useCountdown();
  const noticeTimer = useRef<number | undefined>(undefined);
  const reloadTimer = useRef<number | undefined>(undefined);

  useEffect(
    () => () => {
      window.clearTimeout(noticeTimer.current);
      window.clearTimeout(reloadTimer.current);
    },
    [],
  );

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

  const clearIssue = (field: SignupField | 'otp') => {
    if (issue?.field === field) setIssue(null);
  };
  const set = (field: keyof typeof details) => (value: string) => {
    setDetails((current) => ({ ...current, [field]: value }));
    clearIssue(field);
  };
  const chooseCountry = (entry: CountryCode) => {
    setCountry(entry);
    clearIssue('phone');
  };
  const typeCode = (value: string) => {
    setCode(value);
    clearIssue('otp');
  };

  const codeSent = () => {
    countdown.start(RESEND_COUNTDOWN_S);
    setSentNotice(AUTH_MESSAGES.signupCodeSentTo(details.email.trim()));
    window.clearTimeout(noticeTimer.current);
    noticeTimer.current = window.setTimeout(() => setSentNotice(null), NOTICE_HIDE_MS);
  };

  const sendCode = async (kind: 'send' | 'resend') => {
    setBusy(kind);
    setIssue(null);
    try {
      await authApi.sendSignupCode({ name: details.name.trim(), email: details.email.trim() });
      codeSent();
      return true;
    } catch (error) {
      const fallback = kind === 'send' ? AUTH_MESSAGES.signupSendFailed : AUTH_MESSAGES.signupResendFailed;
      const known = STEP_FIELDS.find((candidate) => candidate === errorField(error));
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
      document.getElementById(fieldId('otp'))?.focus();
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

  const backToDetails = () => {
    setIssue(null);
    setStep('details');
    focusField('name');
  };

  return {
    details,
    set,
    country,
    chooseCountry,
    code,
    typeCode,
    sentNotice,
    success,
    busy,
    secondsLeft: countdown.secondsLeft,
    errorFor: (field: SignupField | 'otp') => (issue?.field === field ? issue.message : null),
    formError: issue?.field === 'form' ? issue.message : null,
    onDetails,
    onComplete,
    resend: () => void sendCode('resend'),
    backToDetails,
  };
}

export type SignupFlow = ReturnType<typeof useSignupFlow>;
