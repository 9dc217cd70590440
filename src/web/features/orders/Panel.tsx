import type { ReactNode } from 'react';
import { formatDate } from '../../lib/dates';

/** A moment on the order page: the day and the time of day in India, as the tax documents give it. */
export const when = (iso: string) => formatDate(iso, 'dayAndTimeInIndia');

/** One part of the order page: a titled card. */
export function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 className="mb-4 text-lg font-semibold text-brand-900">{title}</h2>
      {children}
    </section>
  );
}

/** A label and its value, in the order page's fact lists. */
export function Fact({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className={`break-words text-slate-900 ${mono ? 'font-mono text-[13px]' : ''} whitespace-pre-line`}>
        {value}
      </dd>
    </div>
  );
}
