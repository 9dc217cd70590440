import { ArrowLeft, LoaderCircle, X } from 'lucide';
import type { ButtonHTMLAttributes, MouseEvent, ReactNode } from 'react';
import { Icon } from '../Icon';

/**
 * A busy button says so (aria-disabled) and ignores presses, but keeps focus: a `disabled` button drops the focus
 * of the keyboard user who just pressed it to the page body.
 */
export function busyButtonProps(busy: boolean | undefined, onClick?: () => void) {
  return {
    'aria-disabled': busy ? true : undefined,
    onClick: (event: MouseEvent) => {
      if (busy) event.preventDefault();
      else onClick?.();
    },
  } as const;
}

/**
 * A card's small actions on My Tools (a device's, a team's): the frame, to which the caller adds its colours, and
 * the two kinds most are, quiet and (for one that takes something away) danger.
 */
export const smallButton =
  'inline-flex min-h-10 items-center justify-center gap-1.5 rounded-lg border px-3 text-sm font-semibold transition-colors aria-disabled:cursor-wait aria-disabled:opacity-70';
export const quietSmallButton = `${smallButton} border-slate-300 bg-white text-brand-800 hover:bg-slate-50`;
export const dangerSmallButton = `${smallButton} border-red-200 bg-white text-red-700 hover:bg-red-50`;

const primary =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-brand-800 font-semibold text-white shadow-sm transition-colors disabled:cursor-not-allowed aria-disabled:cursor-wait';

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
    wide: 'h-11 w-full px-4 text-sm hover:bg-brand-700 disabled:bg-brand-800/70 aria-disabled:bg-brand-800/70',
    large: 'px-6 py-3 hover:bg-brand-900 disabled:opacity-80 aria-disabled:opacity-80',
    inline: 'min-h-11 px-5 text-sm hover:bg-brand-700 disabled:bg-brand-800/70 aria-disabled:bg-brand-800/70',
  };
  const spinner = size === 'large' ? 'size-5' : 'size-4';
  return (
    <button
      type={type}
      {...busyButtonProps(busy, onClick)}
      disabled={disabled}
      className={`${primary} ${sizes[size]}`}
    >
      {busy ? <Icon node={LoaderCircle} className={`${spinner} animate-spin`} /> : icon}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}

const VARIANTS = {
  primary: 'bg-brand-800 text-white hover:bg-brand-900 disabled:bg-slate-400',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-500',
  // A black ring: the site's orange one is too close to red (1.7:1); black is 3.3:1 on the button and far more around it.
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-slate-400 focus-visible:outline-black',
};

/**
 * A compact button for screens with many actions (the dashboard's tables and panels): `busy` shows a spinner and
 * disables it.
 */
export function Button({
  variant = 'primary',
  busy = false,
  children,
  className = '',
  onClick,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick'> & {
  variant?: keyof typeof VARIANTS;
  busy?: boolean;
  onClick?: () => void;
}) {
  return (
    <button
      type="button"
      {...props}
      {...busyButtonProps(busy, onClick)}
      className={`inline-flex min-h-10 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed aria-disabled:cursor-wait aria-disabled:opacity-70 ${VARIANTS[variant]} ${className}`}
    >
      {busy && <Icon node={LoaderCircle} className="size-4 animate-spin" />}
      {children}
    </button>
  );
}

/** A secondary action beside the primary one; `cancel` marks the way out, where a confirmation puts focus first. */
export function SecondaryButton({
  children,
  onClick,
  cancel,
}: {
  children: ReactNode;
  onClick: () => void;
  cancel?: boolean;
}) {
  return (
    <button
      type="button"
      data-cancel={cancel || undefined}
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
