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

/** The tool an order is for, as the payment window names it (an upgrade's or a renewal's from My Tools has no catalogue prices). */
export type PurchasedItem = Pick<Tool, '_id' | 'name' | 'device'> &
  Partial<Pick<Tool, 'price' | 'priceINR' | 'priceUSD'>>;

/**
 * What the order buys beyond the billing details: the coupon applied in the billing form (the server prices the
 * order with it, or refuses it), the number of seats, the edition of a tool with editions, and for "Add seats" the
 * team license they join, for an upgrade the license that moves to the edition, for a renewal the license renewed;
 * and whether the buyer deducts TDS (issue 68), under which PAN.
 */
export type OrderOptions = {
  couponCode?: string;
  seats?: number;
  editionId?: string;
  teamLicenseId?: string;
  upgradeLicenseId?: string;
  renewLicenseId?: string;
  tds?: boolean;
  pan?: string;
};

/** What the purchase tells the page that started it, and how it moves on. */
export type PurchaseSteps = {
  loadCheckout: () => Promise<RazorpayConstructor>;
  onPurchased: (toolId: string) => void;
  /** The checkout window went away, however it ended. */
  onCheckoutClosed: (toolId: string) => void;
  /** The tool whose card says 'Processing...', or none. */
  setProcessingId: (toolId: string | null) => void;
  navigate: (to: string) => void;
};

/**
 * The purchase flow (docs/product.md §4): create the order, open the checkout, verify the payment, then go to
 * My Tools. Settles once the checkout is open, or fails (after the toast) with the server's error, so the billing
 * form can show it on its fields; `beforeCheckout` runs once the order exists, just before the checkout window
 * opens. Loaded with the billing dialog that starts it (usePurchase), not with the page.
 */
export function startPurchase(
  { loadCheckout, onPurchased, onCheckoutClosed, setProcessingId, navigate }: PurchaseSteps,
  tool: PurchasedItem,
  currency: Currency,
  billing: BillingDetails,
  beforeCheckout?: () => void,
  {
    couponCode,
    seats,
    editionId,
    teamLicenseId,
    upgradeLicenseId,
    renewLicenseId,
    tds,
    pan,
  }: OrderOptions = {},
): Promise<void> {
  setProcessingId(tool._id);
  const failToStart = (error: unknown) => {
    console.error('Failed to create payment', error);
    toast.error(PURCHASE_MESSAGES.createFailed);
    setProcessingId(null);
    throw error;
  };

  return Promise.all([
    checkoutApi.createPayment({
      // An upgrade or a renewal names its license, whose tool the server knows; any other order names the tool.
      ...(upgradeLicenseId
        ? { upgradeLicenseId }
        : renewLicenseId
          ? { renewLicenseId }
          : { toolId: tool._id, toolName: tool.name, price: displayPrice(tool, currency) }),
      currency,
      billingDetails: billing,
      ...(couponCode ? { couponCode } : {}),
      seats,
      editionId,
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
        toast.success(PURCHASE_MESSAGES.success, { beforeNextPage: true });
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
              toast.success(PURCHASE_MESSAGES.success, { beforeNextPage: true });
            })
            .catch((error: unknown) => {
              console.error('Failed to verify payment', error);
              toast.error(PURCHASE_MESSAGES.verifyFailed, { beforeNextPage: true });
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
}
