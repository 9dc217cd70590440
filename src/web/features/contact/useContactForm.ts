import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { CONTACT_MESSAGES, validateContact } from '../../../shared/contact';
import { toast } from '../../components/ToastHost';
import { ApiError } from '../../lib/api';
import { useKeepTypedBeforeHydration } from '../../lib/prerendered-form';
import { type ContactSubmission, sendContactMessage } from './api';

export type ContactField = 'name' | 'organisation' | 'email' | 'relatedTo' | 'description';
type FieldErrors = Partial<Record<ContactField, string>>;
/** The form's "info" of docs/product.md §3: which result box replaces the form, and its text. */
export type ContactResultInfo = { error: boolean; msg: string };

const FIELDS: readonly ContactField[] = ['name', 'organisation', 'email', 'relatedTo', 'description'];
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

/**
 * The contact form's state (docs/product.md §4, §5, §8): validated on submit with the shared rules, sent to
 * POST /api/contact, then a result box. A failed send keeps what the visitor typed.
 */
export function useContactForm(formRef: RefObject<HTMLFormElement | null>) {
  const [values, setValues] = useState<ContactSubmission>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [info, setInfo] = useState<ContactResultInfo | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
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
  const idOf = (field: ContactField | 'website') => `${idPrefix}-${field}`;

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

  /** Typing in a field clears that field's error (docs/product.md §4). */
  const change = (field: ContactField | 'website') => (value: string) => {
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

  const backToForm = () => {
    returningToForm.current = true;
    setInfo(null);
    setSubmitted(false);
  };

  return { values, errors, submitting, submitted, info, resultRef, idOf, change, onSubmit, backToForm };
}
