/**
 * An order's life (docs/product.md §7): the statuses it passes through and the kinds of event its history records.
 * The database columns, the services and the operator's command line all take their names from here.
 */

/** created → paid → refunded, or created → failed when Razorpay could not open the order. */
export const ORDER_STATUSES = ['created', 'paid', 'failed', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_EVENT_KINDS = [
  /** The local order exists, priced from the catalogue. */
  'created',
  /** Razorpay refused or could not be reached when opening the order. */
  'gateway-error',
  /** A payment attempt failed; the buyer may retry on the same order. */
  'payment-failed',
  /** Razorpay reported a payment of another amount or currency than the order's. */
  'amount-mismatch',
  /** Paid, and the purchase, the license and the delivery email were written. */
  'paid',
  /** Paid for a tool the buyer already owned: the payment is refunded. */
  'duplicate-payment',
  'refunded',
  /** Razorpay refused a refund; the order stays paid for the operator to look at. */
  'refund-failed',
  /** The delivery email was sent again (the web's "Get Credentials" or the operator). */
  'resent',
  /** Never reached Razorpay and was closed by the reconciler. */
  'abandoned',
  /** The buyer's bank opened a chargeback: the license is suspended until it is decided. */
  'dispute-created',
  /** The chargeback was decided for the shop: the license works again. */
  'dispute-won',
  /** The chargeback was decided for the buyer: the license is revoked. */
  'dispute-lost',
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];
