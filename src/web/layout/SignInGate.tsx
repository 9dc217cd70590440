import { LockKeyhole } from 'lucide';
import type { ReactNode } from 'react';
import { Icon } from '../components/Icon';
import { useAuth } from '../session/AuthContext';
import { navButtonClass } from './navButton';

/**
 * A page only a signed-in buyer sees, opened signed out: instead of the page, why it asks to sign in and a way to,
 * under the sign-in dialog the AuthProvider opens on load. Closing the dialog leaves focus on this page's "Sign in"
 * (features/auth/AuthDialogs.tsx); signing in reloads the same address, which then shows the page itself.
 */
export function SignInGate({ children }: { children: ReactNode }) {
  const { signInNeeded, openLogin, openSignup } = useAuth();
  if (!signInNeeded) return children;
  return (
    <section
      data-sign-in-gate
      aria-labelledby="sign-in-gate-heading"
      className="mx-auto flex max-w-lg flex-col items-center px-5 py-12 text-center sm:px-6"
    >
      <span className="inline-flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
        <Icon node={LockKeyhole} className="size-7" />
      </span>
      <h1 id="sign-in-gate-heading" className="mt-5 text-4xl font-bold tracking-tight text-brand-900">
        Sign in to continue
      </h1>
      <p className="mt-3 text-lg leading-relaxed text-slate-700">{signInNeeded}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <button
          type="button"
          onClick={() => openLogin(signInNeeded)}
          className={`${navButtonClass} bg-brand-800 px-6 text-white shadow-sm hover:bg-brand-700`}
        >
          Sign in
        </button>
        <button
          type="button"
          onClick={openSignup}
          className={`${navButtonClass} border border-slate-300 bg-white px-6 text-brand-900 hover:bg-slate-50`}
        >
          Create an account
        </button>
      </div>
    </section>
  );
}
