import { focusLost } from '../../lib/announce';
import { type BillingDraft, rememberBillingDraft, storedBillingDraft } from '../../lib/purchase-intent';
import { loadCheckout } from './razorpay';
import { usePurchase } from './usePurchase';

/**
 * An order on a license the buyer holds, opened from My Tools (Add seats, an upgrade): the purchase, with the checkout
 * loaded when it is needed; the billing form started from what the buyer typed last in this tab (its coupon only if
 * it was for this tool) and kept as it is typed; and focus back on `returnFocus` once the checkout window goes, when
 * it took focus with it or left it outside the page's content.
 */
export function useLicenseOrder({
  toolId,
  onPurchased,
  returnFocus,
}: {
  toolId: string;
  onPurchased: () => void;
  returnFocus: () => HTMLElement | null;
}) {
  const { purchase } = usePurchase({
    loadCheckout,
    onPurchased: () => {
      // The code was used and the order bought: the next one starts without them.
      const next = { ...(storedBillingDraft() ?? { address: '', state: '', country: '', gstin: '' }) };
      rememberBillingDraft({ ...next, couponCode: '', couponFor: '', seats: '' });
      onPurchased();
    },
    onCheckoutClosed: () =>
      window.setTimeout(() => {
        if (focusLost() || !document.getElementById('main')?.contains(document.activeElement))
          returnFocus()?.focus();
      }),
  });
  return {
    purchase,
    /** What the buyer typed last in this tab, with its coupon only if it was applied to this tool. */
    draft: (): BillingDraft | undefined => {
      const stored = storedBillingDraft();
      return stored && { ...stored, couponCode: stored.couponFor === toolId ? stored.couponCode : '' };
    },
    keepDraft: (typed: BillingDraft) => rememberBillingDraft({ ...typed, couponFor: toolId }),
  };
}
