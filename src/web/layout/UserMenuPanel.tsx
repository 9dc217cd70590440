import { LayoutDashboard, LogOut, Package, Settings } from 'lucide';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { Icon } from '../components/Icon';
import { useAuth } from '../session/AuthContext';

const menuItems = (menu: HTMLElement | null) => [
  ...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
];

const itemClass =
  'flex w-full items-center gap-2.5 rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-brand-50 hover:text-brand-900 focus-visible:bg-brand-50 focus-visible:text-brand-900 focus-visible:outline-offset-[-2px]';

/**
 * The open account menu (UserMenu.tsx): its own chunk, loaded when the menu first opens or the pointer or focus
 * reaches its button, so the shop's pages do not carry it before anyone asks (issue 69: their JavaScript budget).
 * Arrow keys, Home and End move; Escape closes and returns focus; Tab closes.
 */
export default function UserMenuPanel({
  id,
  focusFirst,
  close,
}: {
  id: string;
  /** Where focus goes as it opens: the first item, the last (ArrowUp on the button), or nowhere (a pointer). */
  focusFirst: 'first' | 'last' | null;
  close: (returnFocus: boolean) => void;
}) {
  const { logout } = useAuth();
  const [signingOut, setSigningOut] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: where focus goes is decided once, as the menu opens.
  useEffect(() => {
    if (!focusFirst) return;
    const list = menuItems(menuRef.current);
    (focusFirst === 'first' ? list[0] : list[list.length - 1])?.focus();
  }, []);

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

  return (
    <div
      ref={menuRef}
      id={id}
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
      <Link role="menuitem" tabIndex={-1} to="/my-tools" className={itemClass} onClick={() => close(false)}>
        <Icon node={Package} className="size-4 text-brand-700" />
        My Tools
      </Link>
      <Link role="menuitem" tabIndex={-1} to="/account" className={itemClass} onClick={() => close(false)}>
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
  );
}
