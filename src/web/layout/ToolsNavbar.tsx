import { Link } from 'wouter';
import { SITE } from '../../shared/site';
import { BrandLogo } from '../components/BrandLogo';
import { useHydrated } from '../lib/prerendered-form';
import { useAuth } from '../session/AuthContext';
import { preloadAuthDialogs } from './AuthDialogsMount';
import { navButtonClass } from './navButton';
import { UserMenu } from './UserMenu';

/**
 * The tools pages' navbar (docs/product.md §2): logo and brand link to /; logged in, a menu with Dashboard,
 * My Tools and Sign Out; otherwise — and while the sign-in state is unknown, or its check failed — Login and
 * Sign Up, so a visitor is never left without a way in. They wait for hydration (disabled until then), so a
 * click is never lost on the prerendered page.
 */
export function ToolsNavbar() {
  const { user, openLogin, openSignup } = useAuth();
  const hydrated = useHydrated();
  return (
    <header className="sticky top-0 z-50 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <nav
        aria-label="Account"
        className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-5 sm:px-6"
      >
        <Link to="/" aria-label={`${SITE.name} home`} className="min-w-0 shrink rounded-md">
          <span className="hidden min-[400px]:inline">
            <BrandLogo />
          </span>
          <span className="min-[400px]:hidden">
            <BrandLogoCompact />
          </span>
        </Link>
        <div className="flex min-w-[10.5rem] shrink-0 items-center justify-end gap-2">
          {user ? (
            <UserMenu name={user.name} />
          ) : (
            <>
              <button
                type="button"
                onClick={() => openLogin()}
                data-login-button
                disabled={!hydrated}
                onPointerEnter={preloadAuthDialogs}
                onFocus={preloadAuthDialogs}
                className={`${navButtonClass} text-brand-800 hover:bg-brand-50`}
              >
                Login
              </button>
              <button
                type="button"
                onClick={openSignup}
                disabled={!hydrated}
                onPointerEnter={preloadAuthDialogs}
                onFocus={preloadAuthDialogs}
                className={`${navButtonClass} bg-brand-800 text-white shadow-sm hover:bg-brand-700`}
              >
                Sign Up
              </button>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}

/** Narrow phones: the brand name on two short lines beside the mark, so Login and Sign Up still fit. */
function BrandLogoCompact() {
  return (
    <span className="flex items-center gap-2">
      <BrandLogo showName={false} />
      <span className="text-sm leading-tight font-semibold tracking-tight text-brand-800">
        {SITE.name.split(' ').map((word) => (
          <span key={word} className="block">
            {word}
          </span>
        ))}
      </span>
    </span>
  );
}
