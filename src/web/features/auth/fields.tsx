import { CircleAlert, CircleCheck, Eye, EyeOff, Info, LoaderCircle, X } from 'lucide-react';
import { type InputHTMLAttributes, type ReactNode, type Ref, useState } from 'react';

export const inputClass = (invalid: boolean) =>
  `block w-full rounded-lg border bg-white px-3.5 py-2.5 text-base text-slate-900 shadow-xs transition-colors placeholder:text-slate-400 focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600/30 disabled:bg-slate-50 disabled:text-slate-500 ${
    invalid ? 'border-red-600' : 'border-slate-300 hover:border-slate-400'
  }`;

export const errorId = (id: string) => `${id}-error`;
export const hintId = (id: string) => `${id}-hint`;

export function FieldError({ id, message }: { id: string; message?: string | null }) {
  if (!message) return null;
  return (
    <p id={errorId(id)} className="mt-1.5 flex items-start gap-1.5 text-sm text-red-700">
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {message}
    </p>
  );
}

type TextFieldProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'className' | 'value' | 'onChange'
> & {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string | null;
  hint?: string;
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
  ...rest
}: TextFieldProps) {
  const described = [hint ? hintId(id) : '', error ? errorId(id) : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        {...rest}
        ref={inputRef}
        id={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={`${inputClass(Boolean(error))} ${inputClassName}`}
      />
      {hint && (
        <p id={hintId(id)} className="mt-1.5 text-sm text-slate-600">
          {hint}
        </p>
      )}
      <FieldError id={id} message={error} />
    </div>
  );
}

/** A password input with a show/hide toggle, so people on phones can check what they typed. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'inputClassName'>) {
  const { id, label, value, onValueChange, error, hint, inputRef, ...rest } = props;
  const [visible, setVisible] = useState(false);
  const described = [hint ? hintId(id) : '', error ? errorId(id) : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative">
        <input
          {...rest}
          ref={inputRef}
          id={id}
          type={visible ? 'text' : 'password'}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={described || undefined}
          autoCapitalize="none"
          spellCheck={false}
          className={`${inputClass(Boolean(error))} pr-11`}
        />
        <button
          type="button"
          onClick={() => setVisible(!visible)}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-500 hover:text-brand-800"
        >
          {visible ? (
            <EyeOff className="size-5" aria-hidden="true" />
          ) : (
            <Eye className="size-5" aria-hidden="true" />
          )}
        </button>
      </div>
      {hint && (
        <p id={hintId(id)} className="mt-1.5 text-sm text-slate-600">
          {hint}
        </p>
      )}
      <FieldError id={id} message={error} />
    </div>
  );
}

const TONES = {
  error: { box: 'border-red-200 bg-red-50 text-red-800', Icon: CircleAlert },
  success: { box: 'border-emerald-200 bg-emerald-50 text-emerald-800', Icon: CircleCheck },
  info: { box: 'border-brand-200 bg-brand-50 text-brand-900', Icon: Info },
} as const;

/** A message box: errors are announced at once (alert), other news politely (status). */
export function Notice({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  const { box, Icon } = TONES[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`flex items-start gap-2.5 rounded-lg border px-3.5 py-3 text-sm leading-snug ${box}`}
    >
      <Icon className="mt-px size-4 shrink-0" aria-hidden="true" />
      <span>{children}</span>
    </div>
  );
}

export function PrimaryButton({
  busy,
  busyLabel,
  children,
  disabled,
  type = 'submit',
  onClick,
}: {
  busy?: boolean;
  busyLabel?: string;
  children: ReactNode;
  disabled?: boolean;
  type?: 'submit' | 'button';
  onClick?: () => void;
}) {
  return (
    <button
      type={type}
      onClick={onClick}
      disabled={busy || disabled}
      aria-disabled={busy || disabled ? true : undefined}
      className="inline-flex h-11 w-full items-center justify-center gap-2 rounded-lg bg-brand-800 px-4 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-brand-800/70"
    >
      {busy && <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}

export const linkButtonClass =
  'rounded-sm font-semibold text-brand-700 underline-offset-4 hover:text-brand-900 hover:underline disabled:cursor-not-allowed disabled:text-slate-500 disabled:no-underline';

/** The dialog's own close button, top right (Escape and a click outside also close it). */
export function CloseButton({ onClose }: { onClose: () => void }) {
  return (
    <button
      type="button"
      onClick={onClose}
      aria-label="Close"
      className="absolute top-4 right-4 flex size-9 items-center justify-center rounded-full text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-800"
    >
      <X className="size-5" aria-hidden="true" />
    </button>
  );
}
