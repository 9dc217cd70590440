import { type ComponentType, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { ToastHost } from './components/ToastHost';
import { ANNOUNCER_ID, announcePage, focusLost } from './lib/announce';
import { withSiteStylesheet } from './lib/stylesheet';
import { ADMIN_ROUTE, NOT_FOUND_ROUTE, PAGE_ROUTES, routeFor } from './routes';

type Route = ReturnType<typeof routeFor>;

/** The page the document was prerendered for has its styles inline; any other needs the whole sheet. */
const firstRoute = typeof window === 'undefined' ? undefined : routeFor(window.location.pathname);
const loadRoute = (route: Route) => (route === firstRoute ? route.load() : withSiteStylesheet(route.load()));

const lazyPages = new Map(
  [...PAGE_ROUTES, ADMIN_ROUTE, NOT_FOUND_ROUTE].map((route) => [route, lazy(() => loadRoute(route))]),
);
const loaded = new Map<Route, ComponentType>();

/**
 * A route's page: rendered directly once its code is here (`loadPage`), otherwise lazily. Navigation loads the code
 * first, so the current page stays on screen until the next one can replace it (a lazy page would suspend and
 * blank the screen meanwhile); the prerender and a Back to a page not yet loaded still go through `lazy`.
 */
function RoutePage({ route }: { route: Route }) {
  // Chosen once: swapping one for the other later would remount the page and lose its state.
  const [Page] = useState(() => loaded.get(route) ?? lazyPages.get(route));
  return Page ? <Page /> : null;
}

/**
 * Loads the code of the page at `pathname`, so it renders without suspending: before hydrating, where the parts the
 * page hydrates when seen wait, and before navigating, where they load too.
 */
export async function loadPage(pathname: string, { hydrating = false } = {}): Promise<void> {
  const route = routeFor(pathname);
  const module = await loadRoute(route);
  loaded.set(route, module.default);
  if (!hydrating) await module.preload?.();
}

/**
 * Keeps the document title and description right after client-side navigation (the prerendered page has both right
 * at first, so the descriptions' module is loaded only once the visitor moves).
 */
function RouteMeta() {
  const [pathname] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    const route = routeFor(pathname);
    const arrived = first.current;
    first.current = false;
    // The dashboard titles its screens itself.
    if (!('title' in route)) return;
    document.title = route.title;
    if (arrived) return;
    void import('./page-descriptions').then(({ PAGE_DESCRIPTIONS }) => {
      if (window.location.pathname !== pathname) return;
      document
        .querySelector('meta[name="description"]')
        ?.setAttribute('content', PAGE_DESCRIPTIONS[route.path] ?? '');
    });
  }, [pathname]);
  return null;
}

/**
 * After a client-side move to another page: the live region says which page it is (its title, after the confirmation
 * that led there, if any), and focus, which
 * the link or menu that led here took with it, starts again at the new page's skip link.
 */
function RouteAnnouncer() {
  const [pathname] = useLocation();
  const route = routeFor(pathname);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if ('title' in route) announcePage(route.title);
    if (focusLost()) document.querySelector<HTMLElement>('[data-skip-link]')?.focus();
  }, [route]);
  return <div id={ANNOUNCER_ID} role="status" aria-live="polite" aria-atomic="true" className="sr-only" />;
}

function ScrollToTop() {
  const [pathname] = useLocation();
  // A new page starts at the top, unless the address names a section in it (read here: wouter tracks no hash).
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new pathname is exactly when to scroll to the top.
  useEffect(() => {
    if (!window.location.hash) window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/**
 * The page for the address, found by `routeFor` as the entry finds the code to load before hydrating: by the exact
 * path, as the server finds the prerendered file, so the three always agree.
 */
function CurrentPage() {
  const [pathname] = useLocation();
  const route = routeFor(pathname);
  return <RoutePage key={route.path} route={route} />;
}

export function App() {
  return (
    <>
      <RouteMeta />
      <ScrollToTop />
      <RouteAnnouncer />
      <Suspense fallback={null}>
        <CurrentPage />
      </Suspense>
      <ToastHost />
    </>
  );
}
