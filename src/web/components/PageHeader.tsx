import { Menu, X } from 'lucide';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { SITE } from '../../shared/site';
import { NavLink } from '../lib/NavLink';
import { BrandLogo } from './BrandLogo';
import { Icon } from './Icon';
import { SkipLink } from './SkipLink';

const HEADER_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/OurTeam', label: 'Our Team' },
  { to: '/utility-tools', label: 'Utility Tools' },
  { to: '/Contact', label: 'Contact' },
] as const;

const linkClass =
  (size: string) =>
  ({ isActive }: { isActive: boolean }) =>
    `rounded-md px-3 font-medium transition-colors ${size} ${
      isActive ? 'bg-brand-50 text-brand-900' : 'text-slate-600 hover:bg-slate-100 hover:text-brand-900'
    }`;

/**
 * The top bar of the secondary pages (Contact, Our Team, policies, 404): the logo home and a few links.
 * Below the medium breakpoint the links fold into a disclosure menu that closes on navigation and on Escape.
 */
export function PageHeader() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const [pathname] = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new pathname is exactly when the menu must close.
  useEffect(() => {
    setOpen(false);
  }, [pathname]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <SkipLink />
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-5 sm:px-6">
        <Link to="/" aria-label={`${SITE.name} home`} className="rounded-md">
          <BrandLogo />
        </Link>
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {HEADER_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={linkClass('py-2 text-sm')}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <button
          ref={toggleRef}
          type="button"
          className="inline-flex size-11 items-center justify-center rounded-md text-brand-900 hover:bg-slate-100 md:hidden"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? <Icon node={X} className="size-6" /> : <Icon node={Menu} className="size-6" />}
        </button>
      </div>
      <nav
        id={menuId}
        aria-label="Main (mobile)"
        hidden={!open}
        className="border-t border-slate-200 bg-white px-5 pt-2 pb-4 shadow-sm md:hidden"
      >
        <ul className="flex flex-col gap-1">
          {HEADER_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end className={linkClass('block py-3 text-base')}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
