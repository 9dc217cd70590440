import { type ReactNode, useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { SITE } from '../../../shared/site';
import { SkipLink } from '../../components/SkipLink';
import { announce, focusLost } from '../../lib/announce';
import { NavLink } from '../../lib/NavLink';
import { cameThroughGate } from './GateShell';
import { LogOut, ShieldCheck } from './icons';
import { useSignOut } from './useSignOut';

/** The dashboard's screens, in the order of the navigation. */
export const SCREENS = [
  { to: '/admin', label: 'Overview', end: true },
  { to: '/admin/orders', label: 'Orders', end: false },
  { to: '/admin/customers', label: 'Customers', end: false },
  { to: '/admin/tools', label: 'Tools', end: false },
  { to: '/admin/coupons', label: 'Coupons', end: false },
  { to: '/admin/refund-requests', label: 'Refund requests', end: false },
  { to: '/admin/messages', label: 'Messages', end: false },
  { to: '/admin/mail', label: 'Mail', end: false },
  { to: '/admin/invoices', label: 'Invoices', end: false },
  { to: '/admin/webhooks', label: 'Webhooks', end: false },
  { to: '/admin/activity', label: 'Activity', end: false },
] as const;

/**
 * A move to another screen: said once through the live region (the screen's title, which `useScreenTitle` set in
 * the screen's own effect, before this one runs), and focus, if what had it went with the old screen (a row's
 * link), starts again at the skip link, as on the public pages (App.tsx).
 */
function useScreenChange() {
  const [location] = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new address is exactly when a new screen shows.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    announce(document.title);
    if (focusLost()) document.querySelector<HTMLElement>('[data-skip-link]')?.focus();
  }, [location]);
}

/**
 * The dashboard's frame: a skip link, a bar with the firm, the operator and sign-out, the screens as tabs (wrapping
 * onto more lines on a phone, so every one is in sight), then the screen.
 */
export function DashboardLayout({
  email,
  onSignedOut,
  children,
}: {
  email: string;
  onSignedOut: () => void;
  children: ReactNode;
}) {
  const { busy, signOut } = useSignOut(onSignedOut);
  useScreenChange();
  // Arriving from the sign-in steps, whose card is gone: focus starts at the skip link, and the screen is said.
  useEffect(() => {
    if (!cameThroughGate()) return;
    if (focusLost()) document.querySelector<HTMLElement>('[data-skip-link]')?.focus();
    announce(document.title);
  }, []);
  return (
    <div className="min-h-screen bg-slate-100">
      <SkipLink />
      <header className="bg-brand-900 text-white">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <p className="flex min-w-0 items-center gap-2 font-semibold">
            <ShieldCheck className="size-5 shrink-0" aria-hidden="true" />
            <span className="truncate">{SITE.name}</span>
            <span className="hidden font-normal text-brand-100 sm:inline">· Dashboard</span>
          </p>
          <div className="flex items-center gap-3 text-sm">
            <span className="hidden text-brand-100 md:inline">{email}</span>
            <button
              type="button"
              disabled={busy}
              onClick={signOut}
              className="inline-flex min-h-10 items-center gap-1.5 rounded-lg px-3 py-1.5 font-medium text-white hover:bg-white/10"
            >
              <LogOut className="size-4" aria-hidden="true" />
              Sign out
            </button>
          </div>
        </div>
        <nav aria-label="Dashboard" className="mx-auto max-w-7xl px-2 sm:px-4">
          <ul className="flex flex-wrap gap-x-1">
            {SCREENS.map((screen) => (
              <li key={screen.to}>
                <NavLink
                  to={screen.to}
                  end={screen.end}
                  className={({ isActive }) =>
                    `block whitespace-nowrap border-b-4 px-3 py-2.5 text-sm font-medium ${
                      isActive
                        ? 'border-white text-white'
                        : 'border-transparent text-brand-100 hover:text-white'
                    }`
                  }
                >
                  {screen.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 outline-none sm:px-6 sm:py-8">
        {children}
      </main>
    </div>
  );
}
