import type { ComponentType } from 'react';
import { SITE } from '../shared/site';

export type PageRoute = {
  path: string;
  /** File the prerendered HTML is written to, inside dist/client. */
  file: string;
  title: string;
  description: string;
  /** Listed in sitemap.xml with a canonical link. */
  indexable: boolean;
  /** Asks search engines not to index it (error and dead-end pages). */
  noindex?: boolean;
  /** The page module under src/web/pages, so the build can preload its chunk. */
  page: string;
  load: () => Promise<{ default: ComponentType }>;
};

/**
 * Every public route of the site (docs/product.md §2), with its metadata. The prerender and the router both
 * read this.
 */
export const PAGE_ROUTES: PageRoute[] = [
  {
    path: '/',
    file: 'index.html',
    title: `${SITE.name} — Accounting, Tax & Business Consulting in Jaipur`,
    description:
      'Accounting and bookkeeping, tax and business consultancy, and web development from Jaipur. Consulting that cuts costs and raises profitability, with a 99% client success rate.',
    indexable: true,
    page: 'HomePage',
    load: () => import('./pages/HomePage'),
  },
  {
    path: '/Contact',
    file: 'Contact.html',
    title: `Contact Us — ${SITE.name}`,
    description: `Get in touch with ${SITE.name} in Jaipur: call, email or send us a message about our services or products.`,
    indexable: true,
    page: 'ContactPage',
    load: () => import('./pages/ContactPage'),
  },
  {
    path: '/OurTeam',
    file: 'OurTeam.html',
    title: `Our Team — ${SITE.name}`,
    description: `Meet the accounting, finance and web development professionals behind ${SITE.name}.`,
    indexable: true,
    page: 'OurTeamPage',
    load: () => import('./pages/OurTeamPage'),
  },
  {
    path: '/PrivacyPolicy',
    file: 'PrivacyPolicy.html',
    title: `Privacy Policy — ${SITE.name}`,
    description: `How ${SITE.name} collects, uses, protects and retains your personal information.`,
    indexable: true,
    page: 'PrivacyPolicyPage',
    load: () => import('./pages/PrivacyPolicyPage'),
  },
  {
    path: '/TermsAndConditions',
    file: 'TermsAndConditions.html',
    title: `Terms and Conditions — ${SITE.name}`,
    description: `The terms that govern the services, products and website of ${SITE.name}.`,
    indexable: true,
    page: 'TermsPage',
    load: () => import('./pages/TermsPage'),
  },
  {
    path: '/refund-policy',
    file: 'refund-policy.html',
    title: `Refund and Cancellation Policy — ${SITE.name}`,
    description: `When ${SITE.name} cancels an order or refunds a payment for utility tools and services, how refunds are paid, and the credit note you receive.`,
    indexable: true,
    page: 'RefundPolicyPage',
    load: () => import('./pages/RefundPolicyPage'),
  },
  {
    path: '/shipping-policy',
    file: 'shipping-policy.html',
    title: `Shipping and Delivery Policy — ${SITE.name}`,
    description: `How ${SITE.name} delivers utility tools: by email within minutes of payment, with 3-hour download links. Nothing is shipped.`,
    indexable: true,
    page: 'ShippingPolicyPage',
    load: () => import('./pages/ShippingPolicyPage'),
  },
  {
    path: '/utility-tools',
    file: 'utility-tools.html',
    title: `Utility Tools — ${SITE.name}`,
    description:
      'Licensed desktop PDF utility tools for Windows and macOS, with lifetime validity. Prices in INR or USD.',
    indexable: true,
    page: 'UtilityToolsPage',
    load: () => import('./pages/UtilityToolsPage'),
  },
  {
    path: '/my-tools',
    file: 'my-tools.html',
    title: `My Tools — ${SITE.name}`,
    description: 'The utility tools you have purchased, with their credentials and downloads.',
    indexable: false,
    page: 'MyToolsPage',
    load: () => import('./pages/MyToolsPage'),
  },
  {
    path: '/utility-tools/invalid-link',
    file: 'utility-tools-invalid-link.html',
    title: `Invalid or Expired Link — ${SITE.name}`,
    description: 'This download link is invalid or has expired. Download links are valid for 3 hours.',
    indexable: false,
    noindex: true,
    page: 'InvalidLinkPage',
    load: () => import('./pages/InvalidLinkPage'),
  },
];

export const NOT_FOUND_ROUTE: PageRoute = {
  path: '*',
  file: '404.html',
  title: `Page not found — ${SITE.name}`,
  description: 'The page you were looking for does not exist.',
  indexable: false,
  noindex: true,
  page: 'NotFoundPage',
  load: () => import('./pages/NotFoundPage'),
};

/**
 * The operator's dashboard (docs/product.md §12): its own code-split part under /admin, prerendered only as an
 * empty shell, noindex and outside the sitemap. Its screens are routed inside the part.
 */
export const ADMIN_ROUTE: PageRoute = {
  path: '/admin/*',
  file: 'admin.html',
  title: `Dashboard — ${SITE.name}`,
  description: `The operator's dashboard of ${SITE.name}.`,
  indexable: false,
  noindex: true,
  page: 'AdminPage',
  load: () => import('./pages/AdminPage'),
};

export function routeFor(pathname: string): PageRoute {
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return ADMIN_ROUTE;
  return PAGE_ROUTES.find((route) => route.path === pathname) ?? NOT_FOUND_ROUTE;
}
