import { SITE } from '../shared/site';

/**
 * Each route's meta description (routes.ts names the routes), apart from the route table so that the JavaScript every
 * page loads does not carry them (the home page's is held to 80 KB gzip): the build writes them into the prerendered
 * HTML, and App.tsx loads this module only after a client-side move, to keep the meta tag right.
 */
export const PAGE_DESCRIPTIONS: Record<string, string> = {
  '/': 'Accounting and bookkeeping, tax and business consultancy, and web development from Jaipur. Consulting that cuts costs and raises profitability, with a 99% client success rate.',
  '/Contact': `Get in touch with ${SITE.name} in Jaipur: call, email or send us a message about our services or products.`,
  '/OurTeam': `Meet the accounting, finance and web development professionals behind ${SITE.name}.`,
  '/PrivacyPolicy': `How ${SITE.name} collects, uses, protects and retains your personal information.`,
  '/TermsAndConditions': `The terms that govern the services, products and website of ${SITE.name}.`,
  '/refund-policy': `When ${SITE.name} cancels an order or refunds a payment for utility tools and services, how refunds are paid, and the credit note you receive.`,
  '/shipping-policy': `How ${SITE.name} delivers utility tools: by email within minutes of payment, with 3-hour download links. Nothing is shipped.`,
  '/utility-tools':
    'Licensed desktop PDF utility tools for Windows and macOS, with lifetime validity. Prices in INR or USD.',
  '/my-tools': 'The utility tools you have purchased, with their credentials and downloads.',
  '/my-tools/orders/*': 'One of your orders.',
  '/my-tools/team-invitations/*': 'A seat on a team license.',
  '/account': 'Your profile, password, sign-in email, passkeys, signed-in browsers and email preferences.',
  '/unsubscribe': 'Turn off one kind of optional email from your account.',
  '/api-reference': 'The license, trial and update API for desktop tools (OpenAPI 3.1).',
  '/utility-tools/invalid-link':
    'This download link is invalid or has expired. Download links are valid for 3 hours.',
  '*': 'The page you were looking for does not exist.',
};
