import { ChevronDown, LayoutDashboard, LogOut, Package, Settings, UserRound } from 'lucide';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { Icon } from '../components/Icon';
import { useAuth } from '../session/AuthContext';
import { navButtonClass } from './navButton';

const menuItems = (menu: HTMLElement | null) => [
  ...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
];

/** A menu button (WAI-ARIA menu pattern): arrow keys move, Escape closes and returns focus, a click outside closes. */
export function UserMenu({ name }: { name: string }) {
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
    'flex w-full items-center gap-2.5 rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-brand-50 hover:text-brand-900 focus-visible:bg-brand-50 focus-visible:text-brand-900 focus-visible:outline-offset-[-2px]';

  return (
    <div ref={wrapperRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        data-user-menu
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => {
          focusOnOpen.current = open ? null : 'first';
          setOpen(!open);
        }}
        onKeyDown={onButtonKeyDown}
        className={`${navButtonClass} max-w-[13rem] border sm:max-w-xs border-slate-200 bg-white text-brand-900 hover:border-slate-300 hover:bg-slate-50`}
      >
        <Icon node={UserRound} className="size-4 shrink-0 text-brand-700" />
        <span className="truncate">{name}</span>
        <Icon
          node={ChevronDown}
          className={`size-4 shrink-0 text-slate-500 transition-transform ${open ? 'rotate-180' : ''}`}
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
            <Icon node={LayoutDashboard} className="size-4 text-brand-700" />
            Dashboard
          </Link>
          <Link
            role="menuitem"
            tabIndex={-1}
            to="/my-tools"
            className={itemClass}
            onClick={() => close(false)}
          >
            <Icon node={Package} className="size-4 text-brand-700" />
            My Tools
          </Link>
          <Link
            role="menuitem"
            tabIndex={-1}
            to="/account"
            className={itemClass}
            onClick={() => close(false)}
          >
            <Icon node={Settings} className="size-4 text-brand-700" />
            Account
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
            <Icon node={LogOut} className="size-4 text-brand-700" />
            Sign Out
          </button>
        </div>
      )}
    </div>
  );
}
