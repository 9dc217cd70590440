import { CircleAlert } from 'lucide';
import type { InputHTMLAttributes, ReactNode, Ref, TextareaHTMLAttributes } from 'react';
import { Icon } from '../Icon';

/**
 * The one look of a text input, select or textarea in every form on the site: a solid 2 px outline when focused
 * (at least 3:1 against the page), red when it holds an error (also while focused, so the problem stays in view as
 * it is fixed), greyed when it only shows a fixed value.
 */
export const inputClass = (invalid: boolean, readOnly = false) =>
  `block w-full rounded-lg border px-3.5 py-2.5 text-base shadow-xs transition-colors placeholder:text-slate-500 focus:outline-2 focus:outline-offset-0 disabled:bg-slate-50 disabled:text-slate-500 ${
    readOnly
      ? 'cursor-default border-slate-200 bg-slate-100 text-slate-700 focus:border-brand-600 focus:outline-brand-600'
      : invalid
        ? 'border-red-600 bg-white text-slate-900 focus:outline-red-600'
        : 'border-slate-300 bg-white text-slate-900 hover:border-slate-400 focus:border-brand-600 focus:outline-brand-600'
  }`;

/**
 * The compact look of a search or filter control (the back office's search bars and filters, beside their Search
 * button): smaller text and padding than a form's field; the caller sets its width.
 */
export const compactInputClass = 'rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm';

const errorId = (id: string) => `${id}-error`;
const hintId = (id: string) => `${id}-hint`;

/** The aria-describedby value for a control with an optional hint and error. */
const describedBy = (id: string, hint?: unknown, error?: unknown) =>
  [hint ? hintId(id) : '', error ? errorId(id) : ''].filter(Boolean).join(' ') || undefined;

/** The props that tie a control to its label, hint and error. */
export const controlProps = (id: string, error?: string | null, hint?: unknown) => ({
  id,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': describedBy(id, hint, error),
});

function FieldError({ id, message }: { id: string; message?: string | null }) {
  if (!message) return null;
  return (
    <p id={errorId(id)} className="mt-1.5 flex items-start gap-1.5 text-sm text-red-700">
      <Icon node={CircleAlert} className="mt-0.5 size-4 shrink-0" />
      {message}
    </p>
  );
}

function FieldHint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={hintId(id)} className="mt-1.5 text-sm text-slate-600">
      {children}
    </p>
  );
}

/**
 * A label, the control it names, an optional hint below it and the field's error. `required` shows the
 * asterisk
 * (the control carries aria-required itself); `optional` says so after the label.
 */
export function Field({
  id,
  label,
  required,
  optional,
  hint,
  error,
  className,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  optional?: boolean;
  hint?: ReactNode;
  error?: string | null;
  /** Classes for the field's box (its place in a grid). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 flex items-baseline gap-1 text-sm font-medium text-slate-800">
        {label}
        {required && (
          <span aria-hidden="true" className="text-accent-700">
            *
          </span>
        )}
        {optional && <span className="font-normal text-slate-600">(optional)</span>}
      </label>
      {children}
      {hint && <FieldHint id={id}>{hint}</FieldHint>}
      <FieldError id={id} message={error} />
    </div>
  );
}

/** What a field of one text control takes: its control's own attributes, and its label, value, hint and error. */
type LabelledFieldProps<ControlAttributes> = Omit<
  ControlAttributes,
  'id' | 'className' | 'value' | 'onChange'
> & {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string | null;
  hint?: string;
  /** Classes for the field's box (its place in a grid). */
  className?: string;
};

export type TextFieldProps = LabelledFieldProps<InputHTMLAttributes<HTMLInputElement>> & {
  inputRef?: Ref<HTMLInputElement>;
  /** Extra classes for the input itself (e.g. letter spacing for codes). */
  inputClassName?: string;
};

/** A labelled input; its error is announced through aria-describedby and marks it invalid. */
export function TextField({
  id,
  label,
  value,
  onValueChange,
  error,
  hint,
  inputRef,
  inputClassName = '',
  className,
  ...rest
}: TextFieldProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error} className={className}>
      <input
        {...rest}
        {...controlProps(id, error, hint)}
        ref={inputRef}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        className={`${inputClass(Boolean(error))} ${inputClassName}`}
      />
    </Field>
  );
}

/** A labelled multi-line input, in the same look and with the same ties to its hint and error as TextField. */
export function TextAreaField({
  id,
  label,
  value,
  onValueChange,
  error,
  hint,
  className,
  ...rest
}: LabelledFieldProps<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return (
    <Field id={id} label={label} hint={hint} error={error} className={className}>
      <textarea
        {...rest}
        {...controlProps(id, error, hint)}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        className={`${inputClass(Boolean(error))} resize-y`}
      />
    </Field>
  );
}

/** A checkbox with its label beside it. */
export function Checkbox({
  label,
  checked,
  onCheckedChange,
}: {
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex min-h-10 items-center gap-2 text-sm text-slate-800">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onCheckedChange(event.target.checked)}
        className="size-4 accent-brand-800"
      />
      {label}
    </label>
  );
}
