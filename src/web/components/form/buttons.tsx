import { ArrowLeft, LoaderCircle, X } from 'lucide';
import type { ReactNode } from 'react';
import { Icon } from '../Icon';

const primary =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-brand-800 font-semibold text-white shadow-sm transition-colors disabled:cursor-not-allowed';

/**
 * The form's main action. `busy` shows a spinner and the busy label and disables it; `size="wide"` is the dialogs'
 * full-width button, `"large"` the contact page's, `"inline"` a footer button beside Cancel.
 */
export function PrimaryButton({
  busy,
  busyLabel,
  icon,
  children,
  disabled,
  size = 'wide',
  type = 'submit',
  onClick,
}: {
  busy?: boolean;
  busyLabel?: string;
  /** Shown before the label when not busy. */
  icon?: ReactNode;
  children: ReactNode;
  disabled?: boolean;
  size?: 'wide' | 'large' | 'inline';
  type?: 'submit' | 'button';
  onClick?: () => void;
}) {
  const sizes = {
    wide: 'h-11 w-full px-4 text-sm hover:bg-brand-700 disabled:bg-brand-800/70',
    large: 'px-6 py-3 hover:bg-brand-900 disabled:opacity-80',
    inline: 'min-h-11 px-5 text-sm hover:bg-brand-700 disabled:bg-brand-800/70',
  };
  const spinner = size === 'large' ? 'size-5' : 'size-4';
  return (
    <button
      type={type}
      onClick={onClick}
      disabled={busy || disabled}
      aria-disabled={busy || disabled ? true : undefined}
      className={`${primary} ${sizes[size]}`}
    >
      {busy ? <Icon node={LoaderCircle} className={`${spinner} animate-spin`} /> : icon}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}

/** A secondary action beside the primary one (Cancel). */
export function SecondaryButton({ children, onClick }: { children: ReactNode; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-5 text-sm font-semibold text-slate-700 hover:bg-slate-50"
    >
      {children}
    </button>
  );
}

export const linkButtonClass =
  'rounded-sm font-semibold text-brand-700 underline-offset-4 hover:text-brand-900 hover:underline disabled:cursor-not-allowed disabled:text-slate-500 disabled:no-underline';

/** A text button that steps back in a multi-step dialog. */
export function BackButton({
  children,
  onClick,
  disabled,
}: {
  children: ReactNode;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className={`${linkButtonClass} inline-flex items-center gap-1.5 text-sm`}
    >
      <Icon node={ArrowLeft} className="size-4" />
      {children}
    </button>
  );
}

/** The dialog's own close button, top right (Escape and a click outside also close it). */
export function CloseButton({ onClose }: { onClose: () => void }) {
  return (
    <button
      type="button"
      onClick={onClose}
      aria-label="Close"
      className="absolute top-4 right-4 flex size-9 items-center justify-center rounded-full text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-800"
    >
      <Icon node={X} className="size-5" />
    </button>
  );
}
