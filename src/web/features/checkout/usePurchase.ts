import { useCallback, useState } from 'react';
import { useLocation } from 'wouter';
import { type Currency, REDIRECT_AFTER_PAYMENT_MS } from '../../../shared/constants';
import { displayPrice } from '../../../shared/money';
import { type BillingDetails, SHOP_MESSAGES, type Tool } from '../../../shared/shop';
import { SITE } from '../../../shared/site';
import { toast } from '../../components/ToastHost';
import { checkoutApi } from './api';
import type { RazorpayConstructor } from './razorpay';

const PURCHASE_MESSAGES = SHOP_MESSAGES.purchase;

/** The checkout's accent: brand-800 from styles.css, so the payment window matches the site. */
const CHECKOUT_THEME_COLOR = '#17324d';

/**
 * The purchase flow (docs/product.md §4): create the order, open the checkout, verify the payment, then go to
 * My Tools. `processingId` is the tool whose card shows 'Processing...'. `purchase` settles once the checkout is
 * open, or fails (after the toast) with the server's error, so the billing form can show it on its fields.
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
    tool: Tool,
    currency: Currency,
    billing: BillingDetails,
    beforeCheckout?: () => void,
    /**
     * The coupon applied in the billing form (the server prices the order with it, or refuses it), the number of
     * seats, and for "Add seats" the team license they join.
     */
    order?: { couponCode?: string; seats?: number; teamLicenseId?: string; tds?: boolean; pan?: string },
  ) => Promise<void>;
} {
  const [processingId, setProcessingId] = useState<string | null>(null);
  const [, navigate] = useLocation();

  const purchase = useCallback(
    (
      tool: Tool,
      currency: Currency,
      billing: BillingDetails,
      beforeCheckout?: () => void,
      {
        couponCode,
        seats,
        teamLicenseId,
        tds,
        pan,
      }: { couponCode?: string; seats?: number; teamLicenseId?: string; tds?: boolean; pan?: string } = {},
    ) => {
      setProcessingId(tool._id);
      const failToStart = (error: unknown) => {
        console.error('Failed to create payment', error);
        toast.error(PURCHASE_MESSAGES.createFailed);
        setProcessingId(null);
        throw error;
      };

      return Promise.all([
        checkoutApi.createPayment({
          toolId: tool._id,
          toolName: tool.name,
          price: displayPrice(tool, currency),
          currency,
          billingDetails: billing,
          ...(couponCode ? { couponCode } : {}),
          seats,
          teamLicenseId,
          // The buyer deducts TDS (issue 68): the payment asks for the total less it.
          ...(tds ? { tds, pan } : {}),
        }),
        loadCheckout(),
      ])
        .then(([order, Razorpay]) => {
          if (order.free) {
            // A 100 % coupon: the server has already fulfilled the order, so no checkout; the success state.
            beforeCheckout?.();
            onCheckoutClosed(tool._id);
            onPurchased(tool._id);
            toast.success(PURCHASE_MESSAGES.success);
            setProcessingId(null);
            window.setTimeout(() => navigate('/my-tools'), REDIRECT_AFTER_PAYMENT_MS);
            return;
          }
          const checkout = new Razorpay({
            key: order.razorpay_key_id,
            amount: order.amount,
            currency: order.currency,
            order_id: order.order_id,
            // The edition is part of what is bought: the payment window names it (Windows or macOS) beside the
            // firm's name, above the tool's own name.
            name: tool.device ? `${SITE.name} · ${tool.device} edition` : SITE.name,
            description: tool.name,
            prefill: { name: order.name, email: order.email, contact: order.phone },
            theme: { color: CHECKOUT_THEME_COLOR },
            handler: (response) => {
              onCheckoutClosed(tool._id);
              checkoutApi
                .verifyPayment({ ...response, toolId: tool._id, currency })
                .then((result) => {
                  if (result.status !== 'success') throw new Error(result.message);
                  onPurchased(tool._id);
                  toast.success(PURCHASE_MESSAGES.success);
                })
                .catch((error: unknown) => {
                  console.error('Failed to verify payment', error);
                  toast.error(PURCHASE_MESSAGES.verifyFailed);
                })
                .finally(() => {
                  setProcessingId(null);
                  // Either way the buyer lands on My Tools: a verified purchase is there, and an unverified one is
                  // fulfilled by the webhook or the reconciler shortly after.
                  window.setTimeout(() => navigate('/my-tools'), REDIRECT_AFTER_PAYMENT_MS);
                });
            },
            modal: {
              ondismiss: () => {
                setProcessingId(null);
                onCheckoutClosed(tool._id);
              },
            },
          });
          checkout.on('payment.failed', (response) => {
            toast.error(PURCHASE_MESSAGES.paymentFailed(response.error.description));
            // Razorpay keeps its window open for another try (whose success still reaches the handler); the card
            // stops saying 'Processing...' so a checkout that closes on failure leaves no stuck button behind.
            setProcessingId(null);
            onCheckoutClosed(tool._id);
          });
          beforeCheckout?.();
          checkout.open();
        })
        .catch(failToStart);
    },
    [loadCheckout, navigate, onPurchased, onCheckoutClosed],
  );

  return { processingId, purchase };
}
