import { type ReactNode, useEffect, useRef } from 'react';
import { SITE } from '../../../shared/site';
import { announce, focusLost } from '../../lib/announce';
import { ShieldCheck } from './icons';

/** The title of the step shown last on this page load (each step mounts its own shell); null before the first. */
let shownGateTitle: string | null = null;

/** Whether the sign-in steps were shown on this page load: the dashboard then says which screen it opened on. */
export const cameThroughGate = () => shownGateTitle !== null && shownGateTitle !== 'Dashboard';

/**
 * The frame of the steps before the dashboard (sign in, enrol, second factor): one narrow card, centred. Each step
 * replaces the last one's controls: when focus went with them it moves to the card's first field (or button), and a
 * new step's title is said once through the live region.
 */
export function GateShell({ title, children }: { title: string; children: ReactNode }) {
  const cardRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (shownGateTitle !== null && shownGateTitle !== title) announce(title);
    shownGateTitle = title;
  }, [title]);
  // After every render: a step that swapped its controls (the setup code shown, a code refused) left focus nowhere.
  useEffect(() => {
    if (!focusLost()) return;
    const card = cardRef.current;
    const next =
      card?.querySelector<HTMLElement>('input:not([disabled])') ??
      card?.querySelector<HTMLElement>('button:not([disabled]), a[href]');
    next?.focus();
  });
  return (
    <div className="min-h-screen bg-slate-100 px-4 py-10 sm:py-16">
      <main className="mx-auto w-full max-w-md">
        <p className="mb-4 flex items-center justify-center gap-2 text-sm font-semibold text-brand-800">
          <ShieldCheck className="size-5" aria-hidden="true" />
          {SITE.name} · Dashboard
        </p>
        <div ref={cardRef} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="mb-4 text-xl font-semibold text-slate-900">{title}</h1>
          {children}
        </div>
      </main>
    </div>
  );
}
