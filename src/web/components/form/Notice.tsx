import { CircleAlert, CircleCheck, Info } from 'lucide';
import type { ReactNode } from 'react';
import { Icon } from '../Icon';

const TONES = {
  error: { box: 'border-red-200 bg-red-50 text-red-800', icon: CircleAlert },
  success: { box: 'border-emerald-200 bg-emerald-50 text-emerald-800', icon: CircleCheck },
  info: { box: 'border-brand-200 bg-brand-50 text-brand-900', icon: Info },
} as const;

/** A message box: errors are announced at once (alert), other news politely (status). */
export function Notice({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  const { box, icon } = TONES[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`flex items-start gap-2.5 rounded-lg border px-3.5 py-3 text-sm leading-snug ${box}`}
    >
      <Icon node={icon} className="mt-px size-4 shrink-0" />
      <span>{children}</span>
    </div>
  );
}

/** A form's message as a whole (not tied to one field), shown only when there is one. */
export function FormError({ message }: { message?: string | null }) {
  return message ? <Notice tone="error">{message}</Notice> : null;
}
