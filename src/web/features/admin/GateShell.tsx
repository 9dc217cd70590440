import type { ReactNode } from 'react';
import { SITE } from '../../../shared/site';
import { ShieldCheck } from './icons';

/** The frame of the steps before the dashboard (sign in, enrol, second factor): one narrow card, centred. */
export function GateShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-100 px-4 py-10 sm:py-16">
      <main className="mx-auto w-full max-w-md">
        <p className="mb-4 flex items-center justify-center gap-2 text-sm font-semibold text-brand-800">
          <ShieldCheck className="size-5" aria-hidden="true" />
          {SITE.name} · Dashboard
        </p>
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="mb-4 text-xl font-semibold text-slate-900">{title}</h1>
          {children}
        </div>
      </main>
    </div>
  );
}
