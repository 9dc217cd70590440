import { useCallback, useState } from 'react';
import { useLocation } from 'wouter';
import type { Currency } from '../../../shared/constants';
import type { BillingDetails } from '../../../shared/shop';
import type { RazorpayConstructor } from './razorpay';
import type { OrderOptions, PurchasedItem } from './startPurchase';

/** The purchase flow's code, loaded with the billing dialog that starts it (BillingModal), not with the page. */
export const loadPurchaseFlow = () => import('./startPurchase');

/**
 * The purchase (docs/product.md §4, startPurchase.ts) as a page holds it: `processingId` is the tool whose card shows
 * 'Processing...'; `purchase` creates the order, opens the checkout and verifies the payment, then goes to My Tools.
 * It settles once the checkout is open, or fails (after the toast) with the server's error, so the billing form can
 * show it on its fields. The flow's own code comes with the billing dialog (decision 052).
 */
export function usePurchase({
  loadCheckout,
  onPurchased,
  onCheckoutClosed,
}: {
  loadCheckout: () => Promise<RazorpayConstructor>;
  onPurchased: (toolId: string) => void;
  /** The checkout window went away, however it ended. */
  onCheckoutClosed: (toolId: string) => void;
}): {
  processingId: string | null;
  /** `beforeCheckout` runs once the order exists, just before the checkout window opens. */
  purchase: (
    tool: PurchasedItem,
    currency: Currency,
    billing: BillingDetails,
    beforeCheckout?: () => void,
    order?: OrderOptions,
  ) => Promise<void>;
} {
  const [processingId, setProcessingId] = useState<string | null>(null);
  const [, navigate] = useLocation();
  const purchase = useCallback(
    (
      tool: PurchasedItem,
      currency: Currency,
      billing: BillingDetails,
      beforeCheckout?: () => void,
      order?: OrderOptions,
    ) =>
      loadPurchaseFlow().then((flow) =>
        flow.startPurchase(
          { loadCheckout, onPurchased, onCheckoutClosed, setProcessingId, navigate },
          tool,
          currency,
          billing,
          beforeCheckout,
          order,
        ),
      ),
    [loadCheckout, navigate, onPurchased, onCheckoutClosed],
  );
  return { processingId, purchase };
}
