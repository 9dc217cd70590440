import { lazy, Suspense, useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { ToastHost } from './components/ToastHost';
import { withSiteStylesheet } from './lib/stylesheet';
import { ADMIN_ROUTE, NOT_FOUND_ROUTE, PAGE_ROUTES, routeFor } from './routes';

/** The page the document was prerendered for has its styles inline; any other needs the whole sheet. */
const firstRoute = typeof window === 'undefined' ? undefined : routeFor(window.location.pathname);

const pages = [...PAGE_ROUTES, ADMIN_ROUTE, NOT_FOUND_ROUTE].map((route) => ({
  route,
  Page: lazy(() => (route === firstRoute ? route.load() : withSiteStylesheet(route.load()))),
}));

/** Keeps the document title and description right after client-side navigation. */
function RouteMeta() {
  const { pathname } = useLocation();
  useEffect(() => {
    const route = routeFor(pathname);
    // The dashboard titles its screens itself.
    if (!('title' in route)) return;
    document.title = route.title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', route.description);
  }, [pathname]);
  return null;
}

function ScrollToTop() {
  const { pathname, hash } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new pathname is exactly when to scroll to the top.
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}

export function App() {
  return (
    <>
      <RouteMeta />
      <ScrollToTop />
      <Suspense fallback={null}>
        <Routes>
          {pages.map(({ route, Page }) => (
            <Route key={route.path} path={route.path} element={<Page />} />
          ))}
        </Routes>
      </Suspense>
      <ToastHost />
    </>
  );
}
