import { useEffect, useRef, useState } from 'react';
import {
  AUTH_MESSAGES,
  type AuthUser,
  phoneDigits,
  type SignupDetails,
  type SignupField,
  signupDetailsIssues,
  validateSignupCode,
} from '../../../shared/auth';
import { NOTICE_HIDE_MS, RESEND_COUNTDOWN_S, SIGNUP_SUCCESS_RELOAD_MS } from '../../../shared/constants';
import { type CountryCode, DEFAULT_COUNTRY } from '../../../shared/country-codes';
import { useForm } from '../../components/form';
import { ApiError } from '../../lib/api';
import { authApi, errorText } from './api';
import { useCountdown } from './useCountdown';

export type SignupStep = 'details' | 'verify';
type SignupValues = Omit<SignupDetails, 'dialCode'> & { otp: string };

const STEP_FIELDS = [
  'name',
  'email',
  'phone',
  'password',
  'confirmPassword',
] as const satisfies SignupField[];
const FIELDS = [...STEP_FIELDS, 'otp'] as const;

/** Whether the server refused one of step 1's details (say, a common password): it is fixed on step 1. */
const refusesDetail = (error: unknown) =>
  error instanceof ApiError && STEP_FIELDS.some((field) => error.body?.fieldErrors?.[field]);

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
  const form = useForm<SignupValues, (typeof FIELDS)[number], 'send' | 'resend' | 'complete'>({
    initial: { name: '', email: '', phone: '', password: '', confirmPassword: '', otp: '' },
    fields: FIELDS,
    idOf: fieldId,
  });
  const { values } = form;
  const [country, setCountry] = useState<CountryCode>(DEFAULT_COUNTRY);
  const [sentNotice, setSentNotice] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
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

  const chooseCountry = (entry: CountryCode) => {
    setCountry(entry);
    form.setErrors({});
  };

  const codeSent = () => {
    countdown.start(RESEND_COUNTDOWN_S);
    setSentNotice(AUTH_MESSAGES.signupCodeSentTo(values.email.trim()));
    window.clearTimeout(noticeTimer.current);
    noticeTimer.current = window.setTimeout(() => setSentNotice(null), NOTICE_HIDE_MS);
  };

  const sendCode = () =>
    authApi.sendSignupCode({ name: values.name.trim(), email: values.email.trim() }).then(codeSent);

  const onDetails = form.submit({
    kind: 'send',
    // Every field's problem at once: fixing one at a time, a submit each, is slow with a screen reader.
    validate: (typed) => signupDetailsIssues({ ...typed, dialCode: country.code }),
    send: async () => {
      await sendCode();
      form.set('otp', '');
      setStep('verify');
      form.focus('otp');
    },
    explain: (error, onFields) => (onFields ? null : errorText(error, AUTH_MESSAGES.signupSendFailed)),
  });

  const onComplete = form.submit({
    kind: 'complete',
    validate: (typed) => {
      const problem = success ? null : validateSignupCode(typed.otp);
      return problem ? { otp: problem } : {};
    },
    send: async (typed) => {
      if (success) return;
      const result = await authApi.completeSignup({
        name: typed.name.trim(),
        email: typed.email.trim(),
        phone: `${country.code}${phoneDigits(typed.phone)}`,
        password: typed.password,
        otp: typed.otp,
      });
      setSuccess(AUTH_MESSAGES.signupSuccess);
      onLoggedIn(result.user);
      reloadTimer.current = window.setTimeout(() => window.location.reload(), SIGNUP_SUCCESS_RELOAD_MS);
    },
    explain: (error, onFields) => {
      // A detail the server refused: fix it on step 1 (its message is on the field); the code stays valid.
      if (refusesDetail(error)) setStep('details');
      return onFields ? null : errorText(error, AUTH_MESSAGES.signupFailed);
    },
  });

  const backToDetails = () => {
    form.setErrors({});
    form.setFormError(null);
    setStep('details');
    form.focus('name');
  };

  return {
    details: values,
    set: (field: keyof SignupValues) => form.change(field),
    country,
    chooseCountry,
    code: values.otp,
    typeCode: form.change('otp'),
    sentNotice,
    success,
    busy: form.busy,
    secondsLeft: countdown.secondsLeft,
    errorFor: form.errorFor,
    formError: form.formError,
    onDetails,
    onComplete,
    resend: () =>
      void form.run({
        kind: 'resend',
        send: () => sendCode(),
        explain: (error) => errorText(error, AUTH_MESSAGES.signupResendFailed),
      }),
    backToDetails,
  };
}

export type SignupFlow = ReturnType<typeof useSignupFlow>;
