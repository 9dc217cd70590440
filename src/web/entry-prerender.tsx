import { type ComponentType, StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { Router } from 'wouter';
import { App } from './App';
import { ADMIN_META } from './features/dashboard/meta';
import { PAGE_DESCRIPTIONS } from './page-descriptions';
import {
  ADMIN_ROUTE as ADMIN_PART,
  NOT_FOUND_ROUTE as NOT_FOUND,
  PAGE_ROUTES as PAGES,
  type PageRoute,
} from './routes';

/** A route as the build prerenders it: with the description its head carries. */
export type DescribedRoute = PageRoute & { description: string };

function described(route: PageRoute): DescribedRoute {
  const description = PAGE_DESCRIPTIONS[route.path];
  if (!description) throw new Error(`page-descriptions.ts has no description for ${route.path}`);
  return { ...route, description };
}

export const PAGE_ROUTES = PAGES.map(described);
export const NOT_FOUND_ROUTE = described(NOT_FOUND);

/** The dashboard's prerendered shell: noindex, outside the sitemap, and answering every address under /admin. */
export const ADMIN_PAGE: DescribedRoute = {
  ...ADMIN_PART,
  ...ADMIN_META,
  search: 'noindex',
};

/** Renders one route to HTML at build time; Suspense (lazy pages) is awaited, so the HTML is complete. */
export async function renderRoute(url: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <Router ssrPath={url}>
        <App />
      </Router>
    </StrictMode>,
    // The whole page is written at once, so no Suspense boundary is worth sending later with a script to move it
    // into place (React does that to boundaries past its first 12.8 KB); the page's scripts allow no inline code.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}

const PAGE_MODULES = import.meta.glob<{ default: ComponentType }>('./pages/*.tsx');

/**
 * The module a route loads, as the Vite manifest names it (src/web/pages/HomePage.tsx), found by loading both: a
 * module is loaded once, so the route's and the page's are the same object.
 */
export async function pageModuleOf(route: Pick<PageRoute, 'load'>): Promise<string> {
  const loaded = await route.load();
  for (const [file, load] of Object.entries(PAGE_MODULES)) {
    if ((await load()) === loaded) return `src/web/pages/${file.slice('./pages/'.length)}`;
  }
  throw new Error('a route loads a module outside src/web/pages');
}
