import type { ComponentType } from 'react';
import { SITE } from '../shared/site';

export type PageModule = {
  default: ComponentType;
  /** Fetches the code of the parts the page hydrates only when seen (lib/hydrate-when-seen.tsx), before it shows. */
  preload?: () => Promise<unknown>;
};

export type PageRoute = {
  /** Also names the prerendered HTML file: /refund-policy → refund-policy.html (scripts/build.ts). */
  path: string;
  // Its meta description is in page-descriptions.ts, out of the JavaScript every page loads.
  title: string;
  /**
   * For search engines: listed in sitemap.xml with a canonical link (the default), `unlisted` (only the canonical
   * link: a page behind sign-in), or `noindex` (error and dead-end pages).
   */
  search?: 'unlisted' | 'noindex';
  /** The page's module under src/web/pages (the build finds it from this, to preload its chunk). */
  load: () => Promise<PageModule>;
};

/**
 * Every public route of the site (docs/product.md §2), with its metadata. The prerender and the router both
 * read this.
 */
export const PAGE_ROUTES: PageRoute[] = [
  {
    path: '/',
    title: `${SITE.name} — Accounting, Tax & Business Consulting in Jaipur`,
    load: () => import('./pages/HomePage'),
  },
  {
    path: '/Contact',
    title: `Contact Us — ${SITE.name}`,
    load: () => import('./pages/ContactPage'),
  },
  {
    path: '/OurTeam',
    title: `Our Team — ${SITE.name}`,
    load: () => import('./pages/OurTeamPage'),
  },
  {
    path: '/PrivacyPolicy',
    title: `Privacy Policy — ${SITE.name}`,
    load: () => import('./pages/PrivacyPolicyPage'),
  },
  {
    path: '/TermsAndConditions',
    title: `Terms and Conditions — ${SITE.name}`,
    load: () => import('./pages/TermsPage'),
  },
  {
    path: '/refund-policy',
    title: `Refund and Cancellation Policy — ${SITE.name}`,
    load: () => import('./pages/RefundPolicyPage'),
  },
  {
    path: '/shipping-policy',
    title: `Shipping and Delivery Policy — ${SITE.name}`,
    load: () => import('./pages/ShippingPolicyPage'),
  },
  {
    path: '/utility-tools',
    title: `Utility Tools — ${SITE.name}`,
    load: () => import('./pages/UtilityToolsPage'),
  },
  {
    path: '/my-tools',
    title: `My Tools — ${SITE.name}`,
    search: 'unlisted',
    load: () => import('./pages/MyToolsPage'),
  },
  {
    // One order of the signed-in buyer (decision 044): one shell for every order, the id read in the browser.
    path: '/my-tools/orders/*',
    title: `Order — ${SITE.name}`,
    // Behind sign-in, as /my-tools is: unlisted (a canonical link, outside the sitemap) rather than noindex, which
    // protected nothing a crawler could see and cost the page Lighthouse's SEO score (issue 56).
    search: 'unlisted',
    load: () => import('./pages/OrderPage'),
  },
  {
    // The link of a team invitation email (issue 54): one shell, the token read in the browser.
    path: '/my-tools/team-invitations/*',
    title: `Team invitation — ${SITE.name}`,
    search: 'noindex',
    load: () => import('./pages/TeamInvitationPage'),
  },
  {
    path: '/account',
    title: `Account — ${SITE.name}`,
    // A page behind sign-in with nothing for a search engine (issue 33): unlisted, as /my-tools is (issue 56).
    search: 'unlisted',
    load: () => import('./pages/AccountPage'),
  },
  {
    path: '/unsubscribe',
    title: `Unsubscribe — ${SITE.name}`,
    // Reached only from a personal link in an email.
    search: 'noindex',
    load: () => import('./pages/UnsubscribePage'),
  },
  {
    path: '/api-reference',
    title: `API Reference — ${SITE.name}`,
    load: () => import('./pages/ApiReferencePage'),
  },
  {
    path: '/utility-tools/invalid-link',
    title: `Invalid or Expired Link — ${SITE.name}`,
    // Reached only through the redirect of an expired download link, which no crawler follows: unlisted rather
    // than noindex, which protected nothing and cost the page its Lighthouse SEO score (issue 15).
    search: 'unlisted',
    load: () => import('./pages/InvalidLinkPage'),
  },
];

export const NOT_FOUND_ROUTE: PageRoute = {
  path: '*',
  title: `Page not found — ${SITE.name}`,
  search: 'noindex',
  load: () => import('./pages/NotFoundPage'),
};

/**
 * The operator's dashboard (docs/product.md §12): its own code-split part under /admin, whose screens are routed
 * and titled inside the part. The public pages' entry carries only its path and chunk; the prerendered shell's
 * metadata is added at build time (entry-prerender.tsx).
 */
export const ADMIN_ROUTE: Pick<PageRoute, 'path' | 'load'> = {
  path: '/admin/*',
  load: () => import('./pages/AdminPage'),
};

export function routeFor(pathname: string): PageRoute | typeof ADMIN_ROUTE {
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return ADMIN_ROUTE;
  return (
    PAGE_ROUTES.find(
      (route) =>
        route.path === pathname ||
        // "/my-tools/orders/*" answers "/my-tools/orders" (the prerendered shell) and every address under it.
        (route.path.endsWith('/*') &&
          (pathname === route.path.slice(0, -2) || pathname.startsWith(route.path.slice(0, -1)))),
    ) ?? NOT_FOUND_ROUTE
  );
}
