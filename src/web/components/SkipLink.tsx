/**
 * The first stop of Tab on every page: hidden until focused, then shown top left. After a client-side navigation
 * focus comes back here (src/web/lib/announce.ts), so a keyboard user starts the new page from its top.
 */
export function SkipLink() {
  return (
    <a
      href="#main"
      data-skip-link
      className="sr-only z-50 rounded-full bg-white px-4 py-2 font-semibold text-brand-900 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to content
    </a>
  );
}
