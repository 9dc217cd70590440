import { ChevronDown, CircleAlert, CircleCheck, LoaderCircle, Send } from 'lucide-react';
import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { CONTACT_TOPICS } from '../../../shared/constants';
import { CONTACT_MESSAGES, validateContact } from '../../../shared/contact';
import { toast } from '../../components/Toasts';
import { ApiError } from '../../lib/api';
import { useHydrated, useKeepTypedBeforeHydration } from '../../lib/prerendered-form';
import { type ContactSubmission, sendContactMessage } from './api';

type Field = 'name' | 'organisation' | 'email' | 'relatedTo' | 'description';
type FieldErrors = Partial<Record<Field, string>>;
/** The spec's form "info": which result box replaces the form, and its text. */
type Result = { error: boolean; msg: string };

const FIELDS: readonly Field[] = ['name', 'organisation', 'email', 'relatedTo', 'description'];
const EMPTY: ContactSubmission = {
  name: '',
  organisation: '',
  email: '',
  relatedTo: '',
  description: '',
  website: '',
};
const PARTIAL_SUCCESS_FALLBACK =
  'Your message was received, but part of the request could not be completed. We will still be in touch.';

/** The server's 400 fieldErrors, kept only for fields this form shows; null when none of them applies. */
function visibleFieldErrors(fieldErrors: Record<string, string> | undefined): FieldErrors | null {
  if (!fieldErrors) return null;
  const mapped: FieldErrors = {};
  for (const field of FIELDS) {
    const message = fieldErrors[field];
    if (message) mapped[field] = message;
  }
  return Object.keys(mapped).length > 0 ? mapped : null;
}

const inputClass = (invalid: boolean) =>
  `block w-full rounded-lg border bg-white px-3.5 py-2.5 text-base text-slate-900 shadow-xs transition-colors placeholder:text-slate-500 focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600/30 disabled:bg-slate-50 ${
    invalid ? 'border-red-600' : 'border-slate-300 hover:border-slate-400'
  }`;

function FieldShell({
  id,
  label,
  required,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 flex items-baseline gap-1 text-sm font-medium text-slate-800">
        {label}
        {required && (
          <span aria-hidden="true" className="text-accent-700">
            *
          </span>
        )}
        {hint && <span className="font-normal text-slate-600">{hint}</span>}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="mt-1.5 flex items-center gap-1.5 text-sm text-red-700">
          <CircleAlert className="size-4 shrink-0" aria-hidden="true" />
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The 'Send Us a Message' form (spec §2, §4, §5, §8): validated on submit with the shared rules, sent to
 * POST /api/contact, then replaced by a green or red result box. A failed send keeps what the visitor typed.
 */
export function ContactForm() {
  const [values, setValues] = useState<ContactSubmission>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [info, setInfo] = useState<Result | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const hydrated = useHydrated();
  // The honeypot is left out: a browser may autofill it, and a bot never waits for hydration anyway.
  useKeepTypedBeforeHydration(formRef, (name, value) =>
    setValues((current) =>
      name !== 'website' && name in current && current[name as keyof ContactSubmission] === ''
        ? { ...current, [name]: value }
        : current,
    ),
  );
  const returningToForm = useRef(false);
  const idPrefix = useId();
  const idOf = (field: Field | 'website') => `${idPrefix}-${field}`;

  // The result box replaces the form the visitor was in, so focus follows it rather than falling to <body>.
  // Leaving it again puts the visitor back at the top of the form.
  // biome-ignore lint/correctness/useExhaustiveDependencies: idOf only derives from the stable useId prefix.
  useEffect(() => {
    if (info) resultRef.current?.focus();
    else if (returningToForm.current) {
      returningToForm.current = false;
      document.getElementById(idOf('name'))?.focus();
    }
  }, [info]);

  const focusFirstInvalid = (found: FieldErrors) => {
    const first = FIELDS.find((field) => found[field]);
    if (first) document.getElementById(idOf(first))?.focus();
  };

  const onChange =
    (field: Field | 'website') =>
    (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
      const { value } = event.target;
      setValues((current) => ({ ...current, [field]: value }));
      if (field !== 'website') {
        setErrors((current) => {
          if (!current[field]) return current;
          const { [field]: _cleared, ...rest } = current;
          return rest;
        });
      }
    };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const found = validateContact(values);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      focusFirstInvalid(found);
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      const reply = await sendContactMessage(values);
      const message = typeof reply?.message === 'string' && reply.message ? reply.message : undefined;
      if (reply?.status === 'success' || reply?.status === 'partial_success') {
        setValues(EMPTY);
        setSubmitted(true);
        setInfo({ error: false, msg: CONTACT_MESSAGES.success });
        if (reply.status === 'success') toast.success(message ?? CONTACT_MESSAGES.success);
        else toast.warning(message ?? PARTIAL_SUCCESS_FALLBACK);
      } else {
        toast.error(CONTACT_MESSAGES.unexpected);
      }
    } catch (error) {
      const serverMessage = error instanceof ApiError ? error.serverMessage : undefined;
      const fieldErrors =
        error instanceof ApiError && error.status === 400
          ? visibleFieldErrors(error.body?.fieldErrors)
          : null;
      if (fieldErrors) {
        // Something the browser's check let through (a length limit, say): show it where it can be fixed.
        setErrors(fieldErrors);
        focusFirstInvalid(fieldErrors);
      } else {
        setInfo({ error: true, msg: CONTACT_MESSAGES.error });
      }
      toast.error(serverMessage ?? CONTACT_MESSAGES.requestFailed);
    } finally {
      setSubmitting(false);
    }
  };

  if (info) {
    const success = submitted && !info.error;
    return (
      <div
        ref={resultRef}
        tabIndex={-1}
        role={success ? 'status' : 'alert'}
        data-testid="contact-result"
        className={`rounded-xl border p-6 sm:p-8 ${
          success ? 'border-green-200 bg-green-50 text-green-900' : 'border-red-200 bg-red-50 text-red-900'
        }`}
      >
        <div className="flex items-start gap-3">
          {success ? (
            <CircleCheck className="mt-0.5 size-6 shrink-0 text-green-700" aria-hidden="true" />
          ) : (
            <CircleAlert className="mt-0.5 size-6 shrink-0 text-red-700" aria-hidden="true" />
          )}
          <div className="space-y-2">
            <p className="text-lg font-semibold">
              {success ? 'Thank you — your message has been sent.' : 'Your message could not be sent.'}
            </p>
            <p>{info.msg}</p>
            <button
              type="button"
              onClick={() => {
                returningToForm.current = true;
                setInfo(null);
                setSubmitted(false);
              }}
              className={`mt-2 inline-flex items-center rounded-lg border bg-white px-4 py-2 text-sm font-semibold transition-colors ${
                success
                  ? 'border-green-300 text-green-900 hover:bg-green-100'
                  : 'border-red-300 text-red-900 hover:bg-red-100'
              }`}
            >
              {success ? 'Send another message' : 'Try again'}
            </button>
          </div>
        </div>
      </div>
    );
  }

  const fieldProps = (field: Field) => ({
    id: idOf(field),
    name: field,
    value: values[field],
    onChange: onChange(field),
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${idOf(field)}-error` : undefined,
    className: inputClass(Boolean(errors[field])),
  });

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <FieldShell id={idOf('name')} label="Name" required error={errors.name}>
          <input
            type="text"
            autoComplete="name"
            maxLength={120}
            aria-required="true"
            {...fieldProps('name')}
          />
        </FieldShell>
        <FieldShell
          id={idOf('organisation')}
          label="Organization"
          hint="(optional)"
          error={errors.organisation}
        >
          <input type="text" autoComplete="organization" maxLength={160} {...fieldProps('organisation')} />
        </FieldShell>
        <FieldShell id={idOf('email')} label="Email" required error={errors.email}>
          <input
            type="email"
            inputMode="email"
            autoComplete="email"
            maxLength={254}
            aria-required="true"
            {...fieldProps('email')}
          />
        </FieldShell>
        <FieldShell id={idOf('relatedTo')} label="Related To" required error={errors.relatedTo}>
          <div className="relative">
            <select
              aria-required="true"
              {...fieldProps('relatedTo')}
              className={`${inputClass(Boolean(errors.relatedTo))} appearance-none pr-10`}
            >
              <option value="">Select an option</option>
              {CONTACT_TOPICS.map((topic) => (
                <option key={topic} value={topic}>
                  {topic}
                </option>
              ))}
            </select>
            <ChevronDown
              className="pointer-events-none absolute top-1/2 right-3 size-5 -translate-y-1/2 text-slate-500"
              aria-hidden="true"
            />
          </div>
        </FieldShell>
      </div>
      <FieldShell id={idOf('description')} label="Description" required error={errors.description}>
        <textarea
          rows={6}
          maxLength={5000}
          aria-required="true"
          placeholder="How can we help? A few lines about your business and what you need are plenty."
          {...fieldProps('description')}
          className={`${inputClass(Boolean(errors.description))} min-h-36 resize-y`}
        />
      </FieldShell>
      {/* Honeypot: invisible and unreachable for people and assistive technology; bots tend to fill it in. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={idOf('website')}>Leave this field empty</label>
        <input
          id={idOf('website')}
          type="text"
          name="website"
          tabIndex={-1}
          autoComplete="off"
          value={values.website}
          onChange={onChange('website')}
        />
      </div>
      <div className="flex flex-col-reverse gap-4 pt-1 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          <span aria-hidden="true" className="text-accent-700">
            *
          </span>{' '}
          Required fields
        </p>
        <button
          type="submit"
          disabled={submitting || !hydrated}
          className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-800 px-6 py-3 font-semibold text-white shadow-sm transition-colors hover:bg-brand-900 disabled:cursor-not-allowed disabled:opacity-80"
        >
          {submitting ? (
            <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
          ) : (
            <Send className="size-5" aria-hidden="true" />
          )}
          {submitting ? 'Sending...' : 'Send Message'}
        </button>
      </div>
    </form>
  );
}
