import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { announce } from '../../lib/announce';
import { ADMIN_META } from './meta';

/** The dashboard's own building blocks (cards, titles, dates, badges); its forms use the site's kit (components/form). */

export function useScreenTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} — ${ADMIN_META.title}`;
  }, [title]);
}

/**
 * A screen's notice of what its last action did: shown on the screen and said once through the site's one live
 * region (the notice itself is not a live region, so it is not read twice).
 */
export function useNotice(): [string | null, (message: string | null) => void] {
  const [notice, setNotice] = useState<string | null>(null);
  const show = useCallback((message: string | null) => {
    setNotice(message);
    if (message) announce(message);
  }, []);
  return [notice, show];
}

/** The screen's notice (useNotice) as a green band above its content; nothing while there is none. */
export function ActionNotice({ message }: { message: string | null }) {
  return message && <p className="mb-4 rounded-lg bg-green-50 px-4 py-3 text-sm text-green-900">{message}</p>;
}

export function Card({
  title,
  children,
  className = '',
}: {
  title?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`rounded-xl border border-slate-200 bg-white p-4 shadow-xs sm:p-5 ${className}`}>
      {title && <h2 className="mb-3 text-base font-semibold text-slate-900">{title}</h2>}
      {children}
    </section>
  );
}

export function ScreenTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      {children}
    </div>
  );
}

/**
 * What every field that asks for the authenticator app's code shares: one length (six digits, a space allowed in the
 * middle as some apps show it), the numeric keypad on a phone, and a description of what to type (issue 63).
 */
export const AUTHENTICATOR_CODE = {
  inputMode: 'numeric',
  autoComplete: 'one-time-code',
  maxLength: 7,
  hint: 'The 6-digit code your authenticator app shows now.',
} as const;

/** The address an erased account is left with (server/account/erasure.ts erasedEmail): a placeholder, not a mailbox. */
const ERASED_EMAIL = /^erased-[0-9a-f-]+@invalid$/i;
export const isErasedEmail = (email: string) => ERASED_EMAIL.test(email);
/** A buyer's address as the dashboard shows it: "Erased customer" for an account erased on request. */
export const customerEmail = (email: string) => (isErasedEmail(email) ? 'Erased customer' : email);

/** A file's size: bytes under 1 KB, KB under 1 MB, else MB (a 941-byte file is not "0.0 MB"). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Date and time as the firm reads them: Indian time, day first. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return date.toLocaleString('en-IN', {
    timeZone: 'Asia/Kolkata',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

const STATUS_STYLES: Record<string, string> = {
  paid: 'bg-green-100 text-green-800',
  refunded: 'bg-amber-100 text-amber-900',
  failed: 'bg-red-100 text-red-800',
  created: 'bg-slate-100 text-slate-700',
  sent: 'bg-green-100 text-green-800',
  pending: 'bg-slate-100 text-slate-700',
  active: 'bg-green-100 text-green-800',
  hidden: 'bg-slate-200 text-slate-800',
  'coming soon': 'bg-blue-100 text-blue-900',
  suspended: 'bg-amber-100 text-amber-900',
  revoked: 'bg-red-100 text-red-800',
  running: 'bg-blue-100 text-blue-900',
  bought: 'bg-green-100 text-green-900',
  draft: 'bg-slate-100 text-slate-700',
  published: 'bg-green-100 text-green-800',
  yanked: 'bg-red-100 text-red-800',
  enabled: 'bg-green-100 text-green-800',
  failing: 'bg-amber-100 text-amber-900',
  delivered: 'bg-green-100 text-green-800',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLES[status] ?? 'bg-slate-100 text-slate-700'}`}
    >
      {status}
    </span>
  );
}
