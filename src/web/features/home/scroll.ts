import { useSyncExternalStore } from 'react';

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

function prefersReducedMotion(): boolean {
  return window.matchMedia(REDUCED_MOTION_QUERY).matches;
}

/**
 * Scrolls the window so the element's top lands `offset` px below (negative) or above (positive) the viewport's
 * top, smoothly unless the visitor asked for reduced motion. Focus moves to the section (without a second scroll)
 * so the next Tab continues from there, as it would after following a plain anchor.
 */
export function scrollToSection(id: string, offset: number): void {
  const target = document.getElementById(id);
  if (!target) return;
  const top = target.getBoundingClientRect().top + window.scrollY + offset;
  window.scrollTo({ top, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  if (target.tabIndex === -1) target.focus({ preventScroll: true });
}

function subscribeReducedMotion(onChange: () => void): () => void {
  const query = window.matchMedia(REDUCED_MOTION_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the visitor prefers reduced motion; `false` while prerendering and hydrating, then the real value. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribeReducedMotion, prefersReducedMotion, () => false);
}
