import { FlaskConical, PackageOpen, SearchX, TriangleAlert } from 'lucide';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { displayPrice, formatPrice } from '../../../shared/money';
import { type BillingDetails, DEVELOPMENT_EXAMPLES, SHOP_MESSAGES, type Tool } from '../../../shared/shop';
import { Icon } from '../../components/Icon';
import { focusLost } from '../../lib/announce';
import { useAuth } from '../../session/AuthContext';
import type { BillingDraft, OrderChoice } from './BillingModal';
import { CurrencyToggle } from './CurrencyToggle';
import { useCheckout } from './checkout';
import {
  rememberBillingDraft,
  rememberPurchase,
  type StoredBillingDraft,
  storedBillingDraft,
} from './intent';
import { useCheckoutLink, usePurchaseIntent } from './resumePurchase';
import { matchesSearch, SearchBox } from './SearchBox';
import { Spinner } from './Spinner';
import { ToolCard } from './ToolCard';
import { toolTitle } from './toolTitle';
import { useCatalogue } from './useCatalogue';
import { usePurchase } from './usePurchase';
import { useSendCredentials } from './useSendCredentials';
import { useStartTrial } from './useStartTrial';

/**
 * The checkout dialog (the billing form with the coupon field, the order summary, the country and state lists) loads
 * when a buyer reaches for it: a pointer over or focus on a card's action button fetches it, so it is there by the
 * click; a purchase the page carries on by itself (after signing in, a reminder's link) fetches it then
 * (decision 052). No page load pays for it.
 */
const loadCheckoutDialog = () => import('./CheckoutDialog');
const CheckoutDialog = lazy(() =>
  loadCheckoutDialog().then((module) => ({ default: module.CheckoutDialog })),
);

/** Fetches the checkout dialog's code when the pointer or focus reaches a card's action button. */
function prefetchOnIntent(event: { target: EventTarget }) {
  if (event.target instanceof Element && event.target.closest('[data-tool-action]'))
    void loadCheckoutDialog();
}

const CATALOGUE_MESSAGES = SHOP_MESSAGES.catalogue;

/** A tool card's action button (Buy, Processing..., Get Credentials): one element whatever it says. */
const toolAction = (toolId: string) =>
  document.querySelector<HTMLElement>(`[data-tool-action="${CSS.escape(toolId)}"]`);

/**
 * The Dashboard of /utility-tools (docs/product.md §2, §4): search, currency, the tool grid and the purchase flow.
 * Tools and the starting currency load on the client; the prerendered page shows the spinner in their place.
 */
export function ToolCatalogue() {
  const { loggedIn, openLogin } = useAuth();
  const { tools, loadFailed, currency, setCurrency, countryCode, markPurchased, markTrialStarted } =
    useCatalogue();
  const [query, setQuery] = useState('');
  const [billingFor, setBillingFor] = useState<Tool | null>(null);
  // The dialog is drawn from the first time a buyer opens it, and stays (closing it returns focus, keeps the draft).
  const [checkoutWanted, setCheckoutWanted] = useState(false);
  if (billingFor && !checkoutWanted) setCheckoutWanted(true);
  // What the buyer typed in the billing form, with the coupon: a buyer whose checkout failed, was closed or was
  // reloaded starts from it (kept for the tab; the coupon only for the tool it was applied to).
  const [billingDraft, setBillingDraft] = useState<StoredBillingDraft | undefined>(storedBillingDraft);
  const keepDraft = (draft: StoredBillingDraft) => {
    setBillingDraft(draft);
    rememberBillingDraft(draft);
  };
  const draftFor = (tool: Tool | null): BillingDraft | undefined =>
    billingDraft && {
      ...billingDraft,
      couponCode: tool && billingDraft.couponFor === tool._id ? billingDraft.couponCode : '',
    };
  const checkout = useCheckout();
  const credentials = useSendCredentials();
  // The trial link goes away once the trial started: focus moves to the card's action button.
  const trial = useStartTrial((toolId, expiresAt) => {
    markTrialStarted(toolId, expiresAt);
    window.setTimeout(() => {
      if (focusLost()) toolAction(toolId)?.focus();
    });
  });

  const { processingId, purchase } = usePurchase({
    loadCheckout: checkout.ready,
    onPurchased: (toolId) => {
      markPurchased(toolId);
      // The code was used: the next purchase starts without it, and for one seat.
      if (billingDraft) keepDraft({ ...billingDraft, couponCode: '', couponFor: '', seats: '' });
    },
    // The checkout closed (dismissed, failed or paid) and took focus with it, or gave it back outside the page's
    // content (the account menu, focused after a sign-in's reload, opened the billing form by remembering it):
    // back to the tool's button.
    onCheckoutClosed: (toolId) =>
      window.setTimeout(() => {
        if (focusLost() || !document.getElementById('main')?.contains(document.activeElement))
          toolAction(toolId)?.focus();
      }),
  });

  usePurchaseIntent({ tools, currency, setCurrency, openBilling: setBillingFor });
  useCheckoutLink({
    tools,
    currency,
    openLogin,
    openBilling: (tool) => {
      setBillingDraft(storedBillingDraft());
      setBillingFor(tool);
    },
  });

  const visible = useMemo(
    () => tools?.filter((tool) => matchesSearch(query, tool.name, tool.description, tool.device)) ?? [],
    [tools, query],
  );

  const buy = (tool: Tool) => {
    if (loggedIn) return setBillingFor(tool);
    openLogin();
    if (currency) rememberPurchase(tool._id, currency);
  };

  /** Signed out, "Try free" opens the login dialog as Buy does, saying that signing in is what starts the trial. */
  const tryFree = (tool: Tool) => {
    if (loggedIn) return trial.start(tool);
    openLogin(
      `Sign in (or sign up) to start your ${tool.trialDays}-day free trial of ${toolTitle(tool)}. Its key comes by email and stays on My Tools.`,
    );
  };

  /**
   * The billing form stays open (busy) until the order exists, so a refusal shows on its fields; it closes before
   * the checkout window opens, which a dialog still open would hide and keep out of reach.
   */
  const proceed = async (billing: BillingDetails, draft: BillingDraft, order: OrderChoice) => {
    if (!billingFor || !currency) return;
    keepDraft({ ...draft, couponFor: billingFor._id });
    await purchase(billingFor, currency, billing, () => flushSync(() => setBillingFor(null)), order);
  };

  // The grid appears in one step, with the test-mode notice, so nothing moves once it is there.
  const loading = !tools || !currency || checkout.testMode === null;
  let body: ReactNode;
  if (loadFailed && !tools) {
    body = (
      <EmptyState icon={<Icon node={TriangleAlert} className="size-7 text-red-700" />} role="alert">
        {CATALOGUE_MESSAGES.loadFailed}
      </EmptyState>
    );
  } else if (loading || !tools || !currency) {
    body = <Spinner label="Loading tools" className="min-h-72" />;
  } else if (tools.length === 0) {
    body = (
      <EmptyState icon={<Icon node={PackageOpen} className="size-7 text-slate-500" />}>
        {CATALOGUE_MESSAGES.empty}
      </EmptyState>
    );
  } else if (visible.length === 0) {
    body = (
      <EmptyState icon={<Icon node={SearchX} className="size-7 text-slate-500" />}>
        {CATALOGUE_MESSAGES.noMatch}
      </EmptyState>
    );
  } else {
    body = (
      <>
        {checkout.testMode && (
          <p className="mb-6 flex items-start gap-2.5 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-950 ring-1 ring-amber-200">
            <Icon node={FlaskConical} className="mt-0.5 size-4 shrink-0 text-amber-800" />
            <span>
              <strong className="font-semibold">Test mode — payments are simulated.</strong> The checkout is a
              local stand-in and no real money moves. A new development shop offers a{' '}
              {DEVELOPMENT_EXAMPLES.trialDays}-day free trial of the {DEVELOPMENT_EXAMPLES.trialDevice}{' '}
              toolkit and the coupon {DEVELOPMENT_EXAMPLES.coupon.code} ({DEVELOPMENT_EXAMPLES.coupon.percent}
              % off).
            </span>
          </p>
        )}
        <ul
          className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
          onPointerOver={prefetchOnIntent}
          onFocus={prefetchOnIntent}
        >
          {visible.map((tool) => (
            <li key={tool._id}>
              <ToolCard
                tool={tool}
                currency={currency}
                processing={processingId === tool._id}
                sending={credentials.isSending(tool._id)}
                onBuy={buy}
                onGetCredentials={(t) => credentials.send(t._id)}
                trial={{ starting: trial.startingId === tool._id, onTry: tryFree }}
              />
            </li>
          ))}
        </ul>
      </>
    );
  }

  return (
    <>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <SearchBox value={query} onChange={setQuery} placeholder="Search tools..." label="Search tools" />
        <CurrencyToggle value={currency} onChange={setCurrency} />
      </div>
      {/* Space for about one row of cards is held while loading, so the page below does not jump. */}
      <div className="mt-8 min-h-96" aria-busy={loading && !loadFailed}>
        {body}
      </div>

      {checkoutWanted && (
        <Suspense fallback={null}>
          <CheckoutDialog
            open={billingFor !== null && currency !== null}
            currency={currency ?? 'INR'}
            draft={draftFor(billingFor)}
            onDraftChange={(draft) => billingFor && keepDraft({ ...draft, couponFor: billingFor._id })}
            countryCode={countryCode}
            summary={
              billingFor &&
              currency && (
                <div className="flex items-baseline justify-between gap-4">
                  <span className="font-medium text-brand-900">{toolTitle(billingFor)}</span>
                  <span className="shrink-0 font-semibold text-brand-900">
                    {formatPrice(displayPrice(billingFor, currency), currency)}
                  </span>
                </div>
              )
            }
            onCancel={() => setBillingFor(null)}
            onSubmit={proceed}
            toolId={billingFor?._id}
            returnFocus={() => (billingFor ? toolAction(billingFor._id) : null)}
          />
        </Suspense>
      )}
    </>
  );
}

function EmptyState({ icon, children, role }: { icon: ReactNode; children: ReactNode; role?: 'alert' }) {
  return (
    <div
      role={role}
      className="flex min-h-72 flex-col items-center justify-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-12 text-center"
    >
      {icon}
      <p className="max-w-md text-base text-slate-700">{children}</p>
    </div>
  );
}
