import { lazy } from 'react';
import { MyToolsList } from '../features/my-tools/MyToolsList';
import { OrderHistory } from '../features/orders/OrderHistory';
import { ToolsLayout } from '../layout/ToolsLayout';

/** A team's panel (issue 54) loads only on the card of a team the buyer owns. */
const TeamPanel = lazy(() => import('./MyToolsTeamPanel'));
/** A license's edition, upgrades, updates and renewal (issues 64, 65) load only on the card of a license with them. */
const LicenseOffers = lazy(() => import('./LicenseOffers'));

/** /my-tools (docs/product.md §2): the signed-in buyer's tools; everyone else is sent to /utility-tools. */
export default function MyToolsPage() {
  return (
    <ToolsLayout>
      <div className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-6xl px-5 pt-12 pb-10 sm:px-6 md:pt-16 md:pb-12">
          <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase">
            Your purchases and trials
          </p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight text-brand-900 sm:text-5xl">My Tools</h1>
          <p className="mt-4 max-w-2xl text-lg leading-relaxed text-slate-700">
            Everything you have bought, with lifetime validity, and your free trials with the days they have
            left. Choose Get Credentials to receive your license key and a fresh download link by email.
          </p>
        </div>
      </div>
      <section
        aria-labelledby="purchased-tools-heading"
        className="mx-auto max-w-6xl px-5 py-12 sm:px-6 md:py-16"
      >
        <h2 id="purchased-tools-heading" className="sr-only">
          Purchased tools and trials
        </h2>
        <MyToolsList teamPanel={TeamPanel} offers={LicenseOffers} />
      </section>
      <section aria-labelledby="order-history-heading" className="mx-auto max-w-6xl px-5 pb-16 sm:px-6">
        <OrderHistory />
      </section>
    </ToolsLayout>
  );
}
