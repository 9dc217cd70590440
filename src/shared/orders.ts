import type { Currency } from './constants';
import { formatSubunits } from './money';

/**
 * An order's life (docs/product.md §7): the statuses it passes through and the kinds of event its history records.
 * The database columns, the services and the operator's command line all take their names from here.
 */

/** created → paid → refunded, or created → failed when Razorpay could not open the order. */
export const ORDER_STATUSES = ['created', 'paid', 'failed', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * What an order buys (docs/structure.md, "Kinds of order"): a new license (one seat or a team's), seats added to a
 * team license the buyer owns, an upgrade of a license to a higher edition of its tool, a renewal of a license's
 * updates for another period. Each kind is one module on the server (src/server/orders/kinds/).
 */
export const ORDER_KINDS = ['new-license', 'add-seats', 'upgrade', 'renewal'] as const;
export type OrderKindName = (typeof ORDER_KINDS)[number];

/**
 * What an order's kind fixed when it was placed (orders.terms): the edition it buys, an upgrade's two editions, or
 * a renewal's months (and, once settled, the end of updates it moved from and to, which its refund puts back).
 */
export type OrderTerms = {
  editionId?: string;
  fromEditionId?: string;
  toEditionId?: string;
  months?: number;
  fromUpdatesUntil?: string;
  toUpdatesUntil?: string;
};

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
  /** An email about the order was sent; its text was removed after the retention period (server/retention.ts). */
  'email-archived',
  /** The buyer asked for a refund under one of the Refund Policy's exceptions (refund_requests). */
  'refund-requested',
  /** The operator declined the buyer's refund request, with a reason the buyer was emailed. */
  'refund-declined',
  /** The buyer corrected the GSTIN or billing address: a credit note cancels the invoice, a new one replaces it. */
  'billing-corrected',
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

/** Each kind of event as the operator reads it on an order's history. */
export const ORDER_EVENT_LABELS: Record<OrderEventKind, string> = {
  created: 'Order created',
  'gateway-error': 'Razorpay could not open the order',
  'payment-failed': 'Payment failed',
  'amount-mismatch': 'Paid amount differs from the order',
  paid: 'Paid; license and delivery email issued',
  'duplicate-payment': 'Paid again for a tool already owned',
  refunded: 'Refunded',
  'refund-failed': 'Razorpay refused the refund',
  resent: 'Delivery email sent again',
  abandoned: 'Closed: never reached Razorpay',
  'dispute-created': 'Chargeback opened; license suspended',
  'dispute-won': 'Chargeback won; license works again',
  'dispute-lost': 'Chargeback lost; license revoked',
  'email-archived': 'Email sent (its text removed after 90 days)',
  'refund-requested': 'Refund requested',
  'refund-declined': 'Refund request declined',
  'billing-corrected': 'Billing details corrected; invoice cancelled by a credit note and issued again',
};

/** The facts events record (their `detail`), named for people; in the order they are shown. */
export const ORDER_EVENT_DETAIL_LABELS: Record<string, string> = {
  source: 'By',
  amount: 'Amount',
  paid: 'Paid',
  reason: 'Reason',
  message: 'Message',
  code: 'Code',
  description: 'Description',
  paymentId: 'Payment',
  refundId: 'Refund',
  disputeId: 'Dispute',
  licenseStatus: 'License',
  refundedEarlier: 'Already refunded at Razorpay',
  downloadLinksRevoked: 'Download links revoked',
  outboxId: 'Email',
  subject: 'Subject',
  purchaseId: 'Purchase',
  existingPurchaseId: 'Earlier purchase',
  cancelledInvoice: 'Cancelled invoice',
  creditNote: 'Credit note',
  invoice: 'New invoice',
  gstin: 'GSTIN',
  state: 'State',
};

/** Who or what caused an event (its detail's `source`). */
export const ORDER_EVENT_SOURCES: Record<string, string> = {
  verify: 'the buyer’s checkout',
  webhook: 'Razorpay webhook',
  reconciler: 'the reconciler',
  web: 'the buyer (Get Credentials)',
  admin: 'the command line',
  dashboard: 'the dashboard',
  razorpay: 'the Razorpay Dashboard',
  'duplicate-payment': 'automatic refund of a duplicate payment',
};

const isCurrency = (value: unknown): value is Currency => value === 'INR' || value === 'USD';

/** `someKey` → "Some key", for a fact no label names yet. */
const asWords = (key: string) => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
};

function factValue(key: string, value: unknown, currency: Currency): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (key === 'source' && typeof value === 'string') return ORDER_EVENT_SOURCES[value] ?? value;
  if (key === 'amount' && typeof value === 'number') return formatSubunits(value, currency);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') {
    const money = value as { amount?: unknown; currency?: unknown };
    if (typeof money.amount === 'number' && isCurrency(money.currency))
      return formatSubunits(money.amount, money.currency);
    return JSON.stringify(value);
  }
  return String(value);
}

/**
 * An event's detail as labelled facts for people: known facts first in ORDER_EVENT_DETAIL_LABELS' order, amounts
 * in the event's currency (else the order's), empty ones left out.
 */
export function orderEventFacts(
  detail: unknown,
  orderCurrency: Currency,
): Array<{ label: string; value: string }> {
  if (!detail || typeof detail !== 'object' || Array.isArray(detail)) return [];
  const facts = detail as Record<string, unknown>;
  const currency = isCurrency(facts.currency) ? facts.currency : orderCurrency;
  const known = Object.keys(ORDER_EVENT_DETAIL_LABELS).filter((key) => key in facts);
  const others = Object.keys(facts).filter(
    (key) => !(key in ORDER_EVENT_DETAIL_LABELS) && key !== 'currency',
  );
  return [...known, ...others].flatMap((key) => {
    const value = factValue(key, facts[key], currency);
    return value === undefined ? [] : [{ label: ORDER_EVENT_DETAIL_LABELS[key] ?? asWords(key), value }];
  });
}
