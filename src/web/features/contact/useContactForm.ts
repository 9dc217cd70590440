import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { CONTACT_MESSAGES, validateContact } from '../../../shared/contact';
import { useForm } from '../../components/form';
import { toast } from '../../components/ToastHost';
import { ApiError } from '../../lib/api';
import { useKeepTypedBeforeHydration } from '../../lib/prerendered-form';
import { type ContactSubmission, sendContactMessage } from './api';

export type ContactField = 'name' | 'organisation' | 'email' | 'relatedTo' | 'description';
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

/**
 * The contact form's state (docs/product.md §4, §5, §8): validated on submit with the shared rules, sent to
 * POST /api/contact, then a result box. A failed send keeps what the visitor typed.
 */
export function useContactForm(formRef: RefObject<HTMLFormElement | null>) {
  const idPrefix = useId();
  const idOf = (field: ContactField | 'website') => `${idPrefix}-${field}`;
  const form = useForm({ initial: EMPTY, fields: FIELDS, idOf });
  const [submitted, setSubmitted] = useState(false);
  const [info, setInfo] = useState<ContactResultInfo | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  // The honeypot is left out: a browser may autofill it, and a bot never waits for hydration anyway.
  useKeepTypedBeforeHydration(formRef, (name, value) =>
    form.setValues((current) =>
      name !== 'website' && name in current && current[name as keyof ContactSubmission] === ''
        ? { ...current, [name]: value }
        : current,
    ),
  );
  const returningToForm = useRef(false);

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

  const onSubmit = form.submit({
    validate: validateContact,
    send: async (values) => {
      const reply = await sendContactMessage(values);
      const message = typeof reply?.message === 'string' && reply.message ? reply.message : undefined;
      if (reply?.status === 'success' || reply?.status === 'partial_success') {
        form.setValues(EMPTY);
        setSubmitted(true);
        setInfo({ error: false, msg: CONTACT_MESSAGES.success });
        if (reply.status === 'success') toast.success(message ?? CONTACT_MESSAGES.success);
        else toast.warning(message ?? PARTIAL_SUCCESS_FALLBACK);
      } else {
        toast.error(CONTACT_MESSAGES.unexpected);
      }
    },
    explain: (failure, onFields) => {
      // Field errors are something the browser's check let through (a length limit, say): they show where they
      // can be fixed; any other failure replaces the form with the error box.
      if (!onFields) setInfo({ error: true, msg: CONTACT_MESSAGES.error });
      toast.error((failure instanceof ApiError && failure.serverMessage) || CONTACT_MESSAGES.requestFailed);
      return null;
    },
  });

  const backToForm = () => {
    returningToForm.current = true;
    setInfo(null);
    setSubmitted(false);
  };

  return {
    values: form.values,
    errors: form.errors,
    submitting: form.busy !== null,
    submitted,
    info,
    resultRef,
    idOf,
    change: form.change,
    onSubmit,
    backToForm,
  };
}
