import type { PriceFigures } from './checkout-quote';
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
export type OrderDetail = PriceFigures & {
  id: string;
  createdAt: string;
  status: OrderStatus;
  lines: Array<{ description: string; quantity: number; unitPrice: number; amount: number }>;
  coupon: { code: string } | null;
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
  /**
   * What was refunded (subunits, what went back to the buyer) and the credit note that credits it; null while
   * nothing is refunded.
   */
  refund: { amount: number; creditNote: string | null } | null;
  /** The buyer's refund requests and what became of them, oldest first. */
  refundRequests: RefundRequestView[];
  /** The proforma invoice the order is paid against (issue 68), and how that payment stands. */
  proforma: OrderProforma | null;
  /** The TDS the buyer deducts and its Form 16A; null without TDS. */
  tdsCertificate: OrderTdsCertificate | null;
};

export type OrderProforma = {
  number: string;
  issuedAt: string;
  /** The last moment it can be paid (ISO). */
  validUntil: string;
  /** Where its PDF is (owner only). */
  url: string;
  /** `awaiting` payment, `paid`, or `expired` unpaid (the order is then cancelled). */
  state: 'awaiting' | 'paid' | 'expired';
  /** The Razorpay payment link, while the proforma can still be paid by it. */
  paymentLinkUrl: string | null;
  /** The firm's account for NEFT/RTGS, while it can still be paid. */
  bank: { accountName: string; accountNumber: string; ifsc: string; bankName: string } | null;
  /** Received so far (subunits) and each payment: by payment link or bank transfer. */
  received: number;
  receipts: Array<{
    method: 'payment-link' | 'bank-transfer';
    amount: number;
    reference: string;
    receivedOn: string;
  }>;
};

export type OrderTdsCertificate = {
  pan: string;
  /** The uploaded Form 16A, if any: its name, when, whether the firm has checked it, and where to see it. */
  certificate: { fileName: string; uploadedAt: string; checked: boolean; url: string } | null;
  /** The buyer may upload (or replace) it now. */
  canUpload: boolean;
};
