import { lazy, type ReactNode, Suspense, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Currency } from '../../../shared/constants';
import type { BillingDetails, Tool } from '../../../shared/shop';
import { focusLost } from '../../lib/announce';
import {
  type BillingDraft,
  rememberBillingDraft,
  rememberPurchase,
  type StoredBillingDraft,
  storedBillingDraft,
} from '../../lib/purchase-intent';
import { useAuth } from '../../session/AuthContext';
import { useCheckout } from './razorpay';
import { useCheckoutLink, usePurchaseIntent } from './resumePurchase';
import type { OrderChoice } from './types';
import { useProforma } from './useProforma';
import { usePurchase } from './usePurchase';

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

/**
 * Buying from the catalogue (docs/product.md §4): Buy opens the billing dialog (or, signed out, the login dialog,
 * remembering the tool), the dialog starts the payment, and a purchase begun before signing in or by a reminder's
 * link carries on. The catalogue's page joins it to the catalogue (features do not import each other): it gives
 * the catalogue's tools and currency, and `actionOf`, the card's action button that focus returns to; it draws
 * `dialog` after the catalogue.
 */
export function useToolCheckout({
  tools,
  currency,
  setCurrency,
  countryCode,
  onPurchased,
  actionOf,
}: {
  tools: Tool[] | null;
  currency: Currency | null;
  setCurrency: (currency: Currency) => void;
  /** The detected country's code: the dialog looks up its name (decision 052). */
  countryCode: string | undefined;
  onPurchased: (toolId: string) => void;
  actionOf: (toolId: string) => HTMLElement | null;
}): {
  testMode: boolean | null;
  processingId: string | null;
  buy: (tool: Tool) => void;
  prefetch: () => void;
  dialog: ReactNode;
} {
  const { loggedIn, openLogin } = useAuth();
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

  const { processingId, purchase } = usePurchase({
    loadCheckout: checkout.ready,
    onPurchased: (toolId) => {
      onPurchased(toolId);
      // The code was used: the next purchase starts without it, and for one seat.
      if (billingDraft) keepDraft({ ...billingDraft, couponCode: '', couponFor: '', seats: '' });
    },
    // The checkout closed (dismissed, failed or paid) and took focus with it, or gave it back outside the page's
    // content (the account menu, focused after a sign-in's reload, opened the billing form by remembering it):
    // back to the tool's button.
    onCheckoutClosed: (toolId) =>
      window.setTimeout(() => {
        if (focusLost() || !document.getElementById('main')?.contains(document.activeElement))
          actionOf(toolId)?.focus();
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

  const buy = (tool: Tool) => {
    if (loggedIn) return setBillingFor(tool);
    openLogin();
    if (currency) rememberPurchase(tool._id, currency);
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

  const proforma = useProforma();
  const askProforma = async (billing: BillingDetails, draft: BillingDraft, order: OrderChoice) => {
    if (!billingFor || !currency) return;
    keepDraft({ ...draft, couponFor: billingFor._id });
    await proforma(billingFor._id, currency, billing, order, () => {
      // The proforma holds the code now: the next order starts without it.
      keepDraft({ ...draft, couponCode: '', couponFor: '', seats: '' });
      flushSync(() => setBillingFor(null));
    });
  };

  const dialog = checkoutWanted && (
    <Suspense fallback={null}>
      <CheckoutDialog
        open={billingFor !== null && currency !== null}
        currency={currency ?? 'INR'}
        draft={draftFor(billingFor)}
        onDraftChange={(draft) => billingFor && keepDraft({ ...draft, couponFor: billingFor._id })}
        countryCode={countryCode}
        tool={billingFor}
        onCancel={() => setBillingFor(null)}
        onSubmit={proceed}
        onProforma={askProforma}
        returnFocus={() => (billingFor ? actionOf(billingFor._id) : null)}
      />
    </Suspense>
  );

  return {
    testMode: checkout.testMode,
    processingId,
    buy,
    prefetch: () => void loadCheckoutDialog(),
    dialog,
  };
}
