import type { Currency } from './constants';

/**
 * The shop's API contract (docs/product.md §3, §7), shared by the server and the browser.
 * Money in responses is in major units (rupees, dollars) as the product document's browser expects; the database keeps subunits.
 */

export type Device = 'Windows' | 'macOS';

/** GET /api/alltools/ → Tool[] */
import type { ToolEditionView } from './editions';

export type Tool = {
  _id: string;
  name: string;
  description: string;
  /** null: no device (the card's button then says "Purchase"). */
  device: Device | null;
  /** The INR price, kept for the product document's `price` fallback. */
  price: number;
  priceINR: number;
  priceUSD: number | null;
  comingSoon: boolean;
  purchased: boolean;
  icon: string | null;
  /** Length of the free trial a signed-in visitor may start; 0: none (docs/decisions/035-trials.md). */
  trialDays: number;
  /** Signed in only: this visitor has already had (or is having) a trial of the tool. */
  trialStarted?: boolean;
  /** Signed in only: the end of this visitor's trial of the tool, running or ended, while not bought. */
  trialEndsAt?: string;
  /**
   * The tool's editions, lowest first (decision 056); absent for a tool sold at its own prices, whose answer stays
   * as it was before editions.
   */
  editions?: ToolEditionView[];
};

/** GET /api/my-tools/ → PurchasedTool[] */
export type PurchasedTool = {
  _id: string;
  name: string;
  description: string;
  icon: string | null;
  /** Which build was bought: two catalogue entries can share a name (Windows and macOS). */
  device: Device | null;
  /** ISO timestamp, or null when unknown (shown as N/A). */
  purchaseDate: string | null;
  /** A free trial not bought (yet): when it ends or ended. Absent for a bought tool. */
  trialEndsAt?: string;
  /**
   * The newest published stable release with an installer, its notes as sanitised HTML and the oldest system it
   * runs on where the release sets one (macOS major.minor[.patch], Windows major.minor.build); null before the first.
   */
  currentVersion:
    | (ToolVersion & {
        notesHtml: string;
        minimumMacosVersion: string | null;
        minimumWindowsVersion: string | null;
      })
    | null;
  /** The older published stable releases with installers, newest first; yanked ones are never listed. */
  earlierVersions: ToolVersion[];
  /** A team license the user owns (decision 051): its seats and how many are taken (pending invitations too). */
  team?: { licenseId: string; seats: number; seatsUsed: number };
  /** A seat of someone else's team: whose. */
  teamOwner?: { name: string };
};

/** A release as My Tools lists it: its version and one installer per platform and architecture. */
export type ToolVersion = { version: string; publishedAt: string | null; installers: ToolInstaller[] };

/** Downloaded through `GET /api/my-tools/installers/<artifactId>`, which hands out a fresh 3-hour link. */
export type ToolInstaller = {
  artifactId: string;
  platform: 'windows' | 'macos';
  arch: 'x64' | 'arm64' | 'x86' | 'universal';
  fileName: string;
  size: number;
};

/**
 * Every message of the shop (docs/product.md §5, §8) but the billing form's (billing.ts) and the payment endpoints'
 * (below), for both sides: the catalogue and My Tools pages, the purchase flow and "Get Credentials".
 */
export const SHOP_MESSAGES = {
  catalogue: {
    loadFailed: 'Failed to load tools. Please try again later.',
    empty: 'No tools are currently available.',
    noMatch: 'No tools match your search criteria.',
  },
  myTools: {
    loadFailed: 'Failed to load your purchased tools.',
    empty: "You haven't purchased any tools yet.",
    noMatch: 'No tools match your search criteria.',
  },
  purchase: {
    success: 'Payment successful! Details have been sent to you on Email.',
    verifyFailed: 'There was a problem verifying your payment. Please contact support.',
    createFailed: 'There was a problem initiating your payment. Please try again.',
    paymentFailed: (description: string) => `Payment failed: ${description}`,
  },
  /** "Get Credentials": what the server answers when it sent them, and what the browser shows without an answer. */
  credentials: {
    sent: 'Credentials sent to your email!',
    failed: 'Failed to send credentials',
    error: 'Error sending credentials',
  },
} as const;

/**
 * What the payment endpoints and "Get Credentials" answer when they refuse (docs/product.md §8), apart from
 * SHOP_MESSAGES so that the shop's pages, which show the server's message as it comes, do not carry them.
 */
export const SHOP_ENDPOINT_MESSAGES = {
  /** POST /api/send-tool-credentials/ */
  credentials: {
    notPurchased: 'You have not purchased this tool.',
    tooMany:
      'You have asked for your credentials several times already. Please check your inbox or try again later.',
  },
  /** POST /api/create-payment/ */
  payment: {
    toolNotFound: 'This tool is not available.',
    comingSoon: 'This tool is coming soon and cannot be bought yet.',
    alreadyOwned: 'You already own this tool.',
    gatewayFailed: 'We could not reach our payment provider. Please try again in a moment.',
    orderCreated: 'Order created',
  },
  /** POST /api/verify-payment/ */
  verify: {
    success: 'Payment verified successfully',
    orderNotFound: 'Order not found',
    badSignature: 'Payment verification failed: the payment signature is not valid.',
    notSettled: 'The payment could not be matched to its order. Please contact support.',
    duplicate: 'You already own this tool, so this payment is being refunded.',
  },
} as const;

export type { BillingDetails, CreatePaymentRequest, VerifyPaymentRequest } from './shop-schemas';

export type CreatePaymentResponse = {
  status: 'success';
  order_id: string;
  razorpay_key_id: string;
  /** In subunits (paise, cents), as Razorpay's checkout takes it. */
  amount: number;
  currency: Currency;
  name: string;
  email: string;
  phone: string;
  message: string;
  /**
   * A 100 % coupon: the order is already fulfilled without a payment (no Razorpay order; `amount` is 0), so the
   * browser skips the checkout and shows the success state.
   */
  free?: true;
};

/** GET /api/payments/config/: which checkout script the tools page loads (Razorpay's, or the local emulator's). */
/**
 * What a new development shop is seeded with beside the catalogue (issue 63), so a first run shows a free trial and
 * a coupon as well as a purchase; the tools page's test-mode banner names them.
 */
export const DEVELOPMENT_EXAMPLES = {
  trialDays: 14,
  trialDevice: 'macOS',
  coupon: { code: 'WELCOME10', percent: 10 },
} as const;

export type PaymentsConfigResponse = { keyId: string; checkoutScript: string; testMode: boolean };

export type StatusResponse = { status: 'success' | 'error'; message: string };
