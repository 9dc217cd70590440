import { ChevronDown, LayoutDashboard, LogOut, Package, UserRound } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { SITE } from '../../../shared/site';
import { BrandLogo } from '../../components/BrandLogo';
import { preloadAuthDialogs, useAuth } from './AuthContext';

const buttonBase =
  'inline-flex h-10 items-center justify-center gap-2 rounded-lg px-3.5 text-sm font-semibold transition-colors sm:px-4';

/**
 * The tools pages' navbar (spec §2): logo and brand link to /; logged in, a menu with Dashboard, My Tools and
 * Sign Out; logged out, Login and Sign Up. Until the auth check answers, the right side keeps its space empty.
 */
export function ToolsNavbar() {
  const { user, checked, openLogin, openSignup } = useAuth();
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
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
          {!checked ? (
            <span className="h-10 w-full" aria-hidden="true" />
          ) : user ? (
            <UserMenu name={user.name} />
          ) : (
            <>
              <button
                type="button"
                onClick={openLogin}
                onPointerEnter={preloadAuthDialogs}
                onFocus={preloadAuthDialogs}
                className={`${buttonBase} text-brand-800 hover:bg-brand-50`}
              >
                Login
              </button>
              <button
                type="button"
                onClick={openSignup}
                onPointerEnter={preloadAuthDialogs}
                onFocus={preloadAuthDialogs}
                className={`${buttonBase} bg-brand-800 text-white shadow-sm hover:bg-brand-700`}
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

const menuItems = (menu: HTMLElement | null) => [
  ...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
];

/** A menu button (WAI-ARIA menu pattern): arrow keys move, Escape closes and returns focus, a click outside closes. */
function UserMenu({ name }: { name: string }) {
  const { logout } = useAuth();
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const focusOnOpen = useRef<'first' | 'last' | null>(null);

  useEffect(() => {
    if (!open) return;
    const target = focusOnOpen.current;
    focusOnOpen.current = null;
    if (target) {
      const list = menuItems(menuRef.current);
      (target === 'first' ? list[0] : list[list.length - 1])?.focus();
    }
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      focusOnOpen.current = event.key === 'ArrowDown' ? 'first' : 'last';
      setOpen(true);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const list = menuItems(menuRef.current);
    const index = list.indexOf(document.activeElement as HTMLElement);
    const move = (next: number) => {
      event.preventDefault();
      list[(next + list.length) % list.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(list.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') close(false);
  };

  const itemClass =
    'flex w-full items-center gap-2.5 rounded-md px-3 py-2 text-left text-sm text-slate-700 outline-none hover:bg-brand-50 hover:text-brand-900 focus-visible:bg-brand-50 focus-visible:text-brand-900 focus-visible:outline-2 focus-visible:outline-offset-0';

  return (
    <div ref={wrapperRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => {
          focusOnOpen.current = open ? null : 'first';
          setOpen(!open);
        }}
        onKeyDown={onButtonKeyDown}
        className={`${buttonBase} max-w-[13rem] border sm:max-w-xs border-slate-200 bg-white text-brand-900 hover:border-slate-300 hover:bg-slate-50`}
      >
        <UserRound className="size-4 shrink-0 text-brand-700" aria-hidden="true" />
        <span className="truncate">{name}</span>
        <ChevronDown
          className={`size-4 shrink-0 text-slate-500 transition-transform ${open ? 'rotate-180' : ''}`}
          aria-hidden="true"
        />
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Account"
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 z-40 mt-2 w-52 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg"
        >
          <Link
            role="menuitem"
            tabIndex={-1}
            to="/utility-tools"
            className={itemClass}
            onClick={() => close(false)}
          >
            <LayoutDashboard className="size-4 text-brand-700" aria-hidden="true" />
            Dashboard
          </Link>
          <Link
            role="menuitem"
            tabIndex={-1}
            to="/my-tools"
            className={itemClass}
            onClick={() => close(false)}
          >
            <Package className="size-4 text-brand-700" aria-hidden="true" />
            My Tools
          </Link>
          <hr className="my-1 border-slate-100" />
          <button
            role="menuitem"
            tabIndex={-1}
            type="button"
            disabled={signingOut}
            className={itemClass}
            onClick={() => {
              setSigningOut(true);
              void logout();
            }}
          >
            <LogOut className="size-4 text-brand-700" aria-hidden="true" />
            Sign Out
          </button>
        </div>
      )}
    </div>
  );
}
