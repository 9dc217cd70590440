import type { QuoteTaxLine } from './checkout-quote';
import type { Currency } from './constants';
import type { LicenseStatus } from './licenses';
import type { TaxDocumentKind } from './order-history';
import type { OrderStatus } from './orders';
import type { RefundRequestView } from './refund-requests';

/** Where a buyer sees one order (docs/decisions/044-order-summary-and-order-page.md). */
export const orderPagePath = (orderId: string) => `/my-tools/orders/${orderId}`;

/**
 * GET /api/orders/:orderId → OrderDetail: one of the signed-in buyer's own orders (anyone else: 404). Amounts in
 * subunits, as POST /api/checkout/quote gives them, from the same pricing function.
 */
export type OrderDetail = {
  id: string;
  createdAt: string;
  status: OrderStatus;
  currency: Currency;
  lines: Array<{ description: string; quantity: number; unitPrice: number; amount: number }>;
  listPrice: number;
  coupon: { code: string } | null;
  discount: number;
  taxableValue: number;
  taxes: QuoteTaxLine[];
  total: number;
  billing: { address: string; state: string; country: string; gstin: string };
  payment: {
    /** Razorpay's payment id (pay_…); null for a free order or one not paid. */
    reference: string | null;
    orderReference: string;
    /** card, upi, netbanking, wallet… as Razorpay names it; null when it is not known. */
    method: string | null;
    paidAt: string | null;
  };
  history: Array<{ at: string; label: string }>;
  /** Oldest first; an invoice cancelled by a billing correction names the credit note that cancelled it. */
  documents: Array<{
    kind: TaxDocumentKind;
    number: string;
    issuedAt: string;
    url: string;
    cancelledBy: string | null;
  }>;
  /** Until when the billing details can still be corrected (India date, YYYY-MM-DD); null when they cannot. */
  billingCorrectableUntil: string | null;
  license: {
    /** The license's id, as My Tools lists it (with its upgrades). */
    id: string;
    status: LicenseStatus;
    /** Its edition's name, of a tool with editions (decision 056); null without. */
    edition: string | null;
    devices: Array<{ name: string; activatedAt: string; lastSeenAt: string }>;
  } | null;
  /** The buyer's refund requests and what became of them, oldest first. */
  refundRequests: RefundRequestView[];
};
