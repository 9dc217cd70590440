import { Info, ShieldCheck } from 'lucide';
import { Link } from 'wouter';
import { SITE } from '../../shared/site';
import { Icon } from '../components/Icon';
import { toolAction } from '../features/catalogue/ToolCard';
import { ToolCatalogue } from '../features/catalogue/ToolCatalogue';
import { useCatalogue } from '../features/catalogue/useCatalogue';
import { useToolCheckout } from '../features/checkout/useToolCheckout';
import { ToolsLayout } from '../layout/ToolsLayout';

/** The catalogue and the checkout, which meet here: Buy on a card opens the checkout for its tool (decision 055). */
function CatalogueWithCheckout() {
  const catalogue = useCatalogue();
  const checkout = useToolCheckout({
    tools: catalogue.tools,
    currency: catalogue.currency,
    setCurrency: catalogue.setCurrency,
    countryCode: catalogue.countryCode,
    onPurchased: catalogue.markPurchased,
    actionOf: toolAction,
  });
  return (
    <>
      <ToolCatalogue catalogue={catalogue} checkout={checkout} />
      {checkout.dialog}
    </>
  );
}

/**
 * /utility-tools (docs/product.md §2): the notice and the Dashboard are prerendered; the tools arrive on the
 * client.
 */
export default function UtilityToolsPage() {
  return (
    <ToolsLayout poll>
      <div className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-6xl px-5 pt-12 pb-10 sm:px-6 md:pt-16 md:pb-14">
          <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase">
            Licensed desktop software
          </p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight text-brand-900 sm:text-5xl">Utility Tools</h1>
          <p className="mt-4 max-w-2xl text-lg leading-relaxed text-slate-700">
            Dependable PDF tools for Windows and macOS. Pay once, keep them for life, and get your license key
            by email the moment your payment clears.
          </p>

          <section
            aria-labelledby="important-notice-heading"
            className="mt-8 rounded-2xl border border-amber-200 bg-amber-50 p-5 sm:p-6"
          >
            <h2
              id="important-notice-heading"
              className="flex items-center gap-2 text-base font-semibold text-amber-900"
            >
              <Icon node={Info} className="size-5 shrink-0" />
              Important notice
            </h2>
            <ul className="mt-3 space-y-2 text-sm leading-relaxed text-amber-950">
              <li className="flex gap-2.5">
                <Icon node={ShieldCheck} className="mt-0.5 size-4 shrink-0 text-amber-800" />
                <span>
                  Download our tools only from this official website or the link in your purchase email —
                  copies from anywhere else are not genuine and may be unsafe.
                </span>
              </li>
              <li className="flex gap-2.5">
                <Icon node={ShieldCheck} className="mt-0.5 size-4 shrink-0 text-amber-800" />
                <span>Activate the tool with the license key we email you after purchase.</span>
              </li>
              <li className="flex gap-2.5">
                <Icon node={ShieldCheck} className="mt-0.5 size-4 shrink-0 text-amber-800" />
                <span>
                  Some antivirus programs may warn about a newly released tool. The files are safe when
                  downloaded from {SITE.name}; if in doubt, write to{' '}
                  <a
                    href={`mailto:${SITE.supportEmail}`}
                    className="font-medium underline underline-offset-2 hover:text-amber-800"
                  >
                    {SITE.supportEmail}
                  </a>
                  .
                </span>
              </li>
            </ul>
          </section>
        </div>
      </div>

      <section aria-labelledby="dashboard-heading" className="mx-auto max-w-6xl px-5 py-12 sm:px-6 md:py-16">
        <h2
          id="dashboard-heading"
          className="text-2xl font-semibold tracking-tight text-brand-900 sm:text-3xl"
        >
          Dashboard
        </h2>
        <p className="mt-2 mb-8 text-slate-600">
          Every tool comes with lifetime validity. Prices are shown in your currency — switch any time.
        </p>
        <CatalogueWithCheckout />
        <p className="mt-10 text-sm text-slate-600">
          Delivery is by email within minutes; nothing is shipped. See our{' '}
          <Link to="/shipping-policy" className="font-medium text-brand-700 underline underline-offset-2">
            Shipping and Delivery Policy
          </Link>{' '}
          and{' '}
          <Link to="/refund-policy" className="font-medium text-brand-700 underline underline-offset-2">
            Refund and Cancellation Policy
          </Link>
          . Every purchase comes with a GST tax invoice.
        </p>
      </section>
    </ToolsLayout>
  );
}
