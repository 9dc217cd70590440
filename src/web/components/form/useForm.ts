import { type FormEvent, useEffect, useRef, useState } from 'react';
import { announce } from '../../lib/announce';
import { ApiError } from '../../lib/api';

export type FormFieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * One form's state, for every form on the site: its values, one message per field (from the shared validator
 * before sending, or from the server's `{code, message, fieldErrors}` after), a message for the form as a whole,
 * and which action is running. The first field with a message takes focus, once React has drawn it; typing in a
 * field clears its message (docs/product.md §4).
 *
 * `fields` lists the form's fields in the order they appear (the order focus looks in); `idOf` names each field's
 * control. No schema library here: validators are plain functions from `src/shared`, so a page that only shows a
 * form's button does not load zod.
 */
export function useForm<
  V extends Record<string, unknown>,
  F extends string & keyof V,
  B extends string = 'submit',
>({
  initial,
  fields,
  idOf,
  serverPath,
}: {
  initial: V;
  fields: readonly F[];
  idOf: (field: F) => string;
  /** Where the request nests this form's fields (`billingDetails`: the server names `billingDetails.gstin`). */
  serverPath?: string;
}) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrorsState] = useState<FormFieldErrors<F>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<B | null>(null);
  const running = useRef(false);

  const pendingFocus = useRef<F | null>(null);
  useEffect(() => {
    const field = pendingFocus.current;
    if (!field) return;
    pendingFocus.current = null;
    const control = document.getElementById(idOf(field));
    // Focus already there (Enter pressed in the field) reads nothing new: the live region says it instead.
    const message = errors[field];
    if (control === document.activeElement && message) announce(message);
    else control?.focus();
  });

  /** Shows these messages (and only these), moving focus to the first field that has one. */
  const setErrors = (found: FormFieldErrors<F>) => {
    setErrorsState(found);
    const first = fields.find((field) => found[field]);
    if (first) pendingFocus.current = first;
    return Boolean(first);
  };

  const set = <K extends keyof V>(field: K, value: V[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrorsState((current) => {
      if (!(field in current)) return current;
      const { [field as unknown as F]: _cleared, ...rest } = current;
      return rest as FormFieldErrors<F>;
    });
  };
  /** An input's `onValueChange`. */
  const change =
    <K extends keyof V>(field: K) =>
    (value: V[K]) =>
      set(field, value);

  /** The server's field errors for the fields this form shows; true when there was one. */
  const showServerErrors = (failure: unknown): boolean => {
    if (!(failure instanceof ApiError) || !failure.body?.fieldErrors) return false;
    const known: FormFieldErrors<F> = {};
    for (const field of fields) {
      const message = failure.body.fieldErrors[serverPath ? `${serverPath}.${field}` : field];
      if (message) known[field] = message;
    }
    return setErrors(known);
  };

  /**
   * Runs one of the form's actions: checks `validate` first (its messages shown, nothing sent), then `send` with
   * `busy` set to `kind`. A failure with field errors puts them on their fields; `explain` turns any failure into
   * the form's message (null: the action shows its failure its own way), told whether fields now show it.
   */
  const run = async ({
    kind = 'submit' as B,
    validate,
    send,
    explain,
  }: {
    kind?: B;
    validate?: (values: V) => FormFieldErrors<F>;
    send: (values: V) => Promise<void>;
    explain?: (failure: unknown, onFields: boolean) => string | null;
  }): Promise<boolean> => {
    if (running.current) return false;
    setFormError(null);
    if (validate && setErrors(validate(values))) return false;
    if (!validate) setErrorsState({});
    running.current = true;
    setBusy(kind);
    try {
      await send(values);
      return true;
    } catch (failure) {
      const onFields = showServerErrors(failure);
      setFormError(explain ? explain(failure, onFields) : null);
      return false;
    } finally {
      running.current = false;
      setBusy(null);
    }
  };

  /** A form's `onSubmit`: the default action stopped, then `run`. */
  const submit =
    (options: Parameters<typeof run>[0]) =>
    (event: FormEvent): void => {
      event.preventDefault();
      void run(options);
    };

  return {
    values,
    setValues,
    set,
    change,
    errors,
    errorFor: (field: F) => errors[field] ?? null,
    /** A text control's props for one field: `<TextField label="…" {...form.field('email')} />`. */
    field: <K extends F>(field: K) => ({
      id: idOf(field),
      value: values[field],
      onValueChange: change(field),
      error: errors[field] ?? null,
    }),
    /** Moves focus to a field once React has drawn it (it may belong to a step being switched to). */
    focus: (field: F) => {
      pendingFocus.current = field;
    },
    setErrors,
    formError,
    setFormError,
    busy,
    run,
    submit,
  };
}
