import { ChevronDown, UserRound } from 'lucide';
import { type KeyboardEvent, lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../components/Icon';
import { navButtonClass } from './navButton';

const loadPanel = () => import('./UserMenuPanel');
const UserMenuPanel = lazy(loadPanel);

/** A menu button (WAI-ARIA menu pattern): arrow keys move, Escape closes and returns focus, a click outside closes. */
export function UserMenu({ name }: { name: string }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const [focusFirst, setFocusFirst] = useState<'first' | 'last' | null>(null);

  useEffect(() => {
    if (!open) return;
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

  const openAt = (target: 'first' | 'last' | null) => {
    setFocusFirst(target);
    setOpen(true);
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  return (
    <div ref={wrapperRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        data-user-menu
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? setOpen(false) : openAt('first'))}
        onKeyDown={onButtonKeyDown}
        // The open menu's code, fetched as the pointer or focus reaches the button: there before the click.
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
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
        <Suspense fallback={null}>
          <UserMenuPanel id={menuId} focusFirst={focusFirst} close={close} />
        </Suspense>
      )}
    </div>
  );
}
