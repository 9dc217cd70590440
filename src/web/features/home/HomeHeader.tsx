import { Menu, X } from 'lucide';
import { type KeyboardEvent, type MouseEvent, useEffect, useId, useRef, useState } from 'react';
import { COPYRIGHT_YEAR, DRAWER_TRANSITION_MS, SCROLL_OFFSETS } from '../../../shared/constants';
import { SITE } from '../../../shared/site';
import { BrandLogo } from '../../components/BrandLogo';
import { Icon } from '../../components/Icon';
import { HOME_NAV, type SectionId } from '../../content/home';
import { SectionLink } from './SectionLink';
import { scrollToSection } from './scroll';

const transition = { transitionDuration: `${DRAWER_TRANSITION_MS}ms` };

/**
 * The home page's navigation (docs/product.md §2): a sticky bar from the medium breakpoint up; below it a
 * fixed bar whose menu button opens a drawer that slides in from the right, covering the whole screen on a
 * phone and most of a wider small screen (where a click beside it closes it). Entries are real
 * `#id` links, so they work before JavaScript loads; with it, a click scrolls smoothly with the documented
 * offset.
 */
export function HomeHeader() {
  const [open, setOpen] = useState(false);
  const drawerId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const { body } = document;
    const previousOverflow = body.style.overflow;
    body.style.overflow = 'hidden';
    closeRef.current?.focus();
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      body.style.overflow = previousOverflow;
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  // A wider window hides the drawer with CSS; close it too, or the page would stay scroll-locked.
  useEffect(() => {
    if (!open) return;
    const wide = window.matchMedia('(min-width: 48rem)');
    const onChange = () => {
      if (wide.matches) setOpen(false);
    };
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, [open]);

  const dismiss = () => {
    setOpen(false);
    toggleRef.current?.focus();
  };

  const choose = (id: SectionId) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    setOpen(false);
    scrollToSection(id, SCROLL_OFFSETS[id]);
  };

  // Keeps Tab and Shift+Tab inside the open drawer, as in any modal dialog.
  const trapFocus = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !panelRef.current) return;
    const focusable = panelRef.current.querySelectorAll<HTMLElement>('a[href], button');
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  return (
    <>
      <header className="fixed inset-x-0 top-0 z-40 border-b border-slate-200/80 bg-white/95 backdrop-blur-sm md:sticky">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between px-5 md:px-8">
          <SectionLink section="home" className="rounded-md">
            <BrandLogo />
          </SectionLink>
          <nav aria-label="Main" className="hidden md:block">
            <ul className="flex items-center gap-1">
              {HOME_NAV.map((entry) => (
                <li key={entry.id}>
                  <SectionLink
                    section={entry.id}
                    className="rounded-full px-4 py-2 text-sm font-medium text-slate-700 transition-colors hover:bg-brand-50 hover:text-brand-900"
                  >
                    {entry.label}
                  </SectionLink>
                </li>
              ))}
            </ul>
          </nav>
          <button
            ref={toggleRef}
            type="button"
            aria-label="Menu"
            aria-expanded={open}
            aria-controls={drawerId}
            onClick={() => setOpen((value) => !value)}
            className="-mr-2 inline-flex size-11 cursor-pointer items-center justify-center rounded-full text-brand-800 hover:bg-brand-50 md:hidden"
          >
            <Icon node={Menu} className="size-6" />
          </button>
        </div>
      </header>

      <div
        inert={!open}
        className={`fixed inset-0 z-50 md:hidden ${open ? 'visible' : 'invisible'}`}
        // Visible at once on opening (so focus can move in); hidden only after the slide-out has finished.
        style={{ transition: `visibility 0s linear ${open ? 0 : DRAWER_TRANSITION_MS}ms` }}
      >
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard way out is Escape or the close button. */}
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the backdrop only catches clicks outside the drawer. */}
        <div
          data-testid="drawer-backdrop"
          onClick={dismiss}
          className={`absolute inset-0 bg-slate-900/50 transition-opacity ${open ? 'opacity-100' : 'opacity-0'}`}
          style={transition}
        />
        <div
          ref={panelRef}
          id={drawerId}
          role="dialog"
          aria-modal="true"
          aria-label="Site menu"
          onKeyDown={trapFocus}
          className={`absolute inset-y-0 right-0 flex w-full flex-col sm:w-[min(22rem,88vw)] bg-white shadow-2xl transition-transform ${open ? 'translate-x-0' : 'translate-x-full'}`}
          style={transition}
        >
          <div className="flex h-16 items-center justify-between border-b border-slate-100 px-5">
            <BrandLogo />
            <button
              ref={closeRef}
              type="button"
              aria-label="Close menu"
              onClick={dismiss}
              className="-mr-2 inline-flex size-11 cursor-pointer items-center justify-center rounded-full text-brand-800 hover:bg-brand-50"
            >
              <Icon node={X} className="size-6" />
            </button>
          </div>
          <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-6">
            <ul className="space-y-1">
              {HOME_NAV.map((entry) => (
                <li key={entry.id}>
                  <a
                    href={`#${entry.id}`}
                    onClick={choose(entry.id)}
                    className="block rounded-xl px-4 py-3 text-lg font-medium text-brand-900 hover:bg-brand-50"
                  >
                    {entry.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <p className="border-t border-slate-100 px-5 py-5 text-sm text-slate-600">
            {`© ${COPYRIGHT_YEAR} ${SITE.name}. All rights reserved.`}
          </p>
        </div>
      </div>
    </>
  );
}
