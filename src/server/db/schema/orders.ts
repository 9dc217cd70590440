import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { CURRENCIES } from '../../../shared/constants';
import type { OrderTerms } from '../../../shared/orders';
import { ORDER_EVENT_KINDS, ORDER_KINDS, ORDER_STATUSES } from '../../../shared/orders';
import { REFUND_REQUEST_REASONS, REFUND_REQUEST_STATUSES } from '../../../shared/refund-requests';
import type { BillingDetails } from '../../../shared/shop';
import { users } from './accounts';
import { tools } from './catalogue';
import { createdAt, id, ref, ts, updatedAt } from './columns';

export const orders = pgTable(
  'orders',
  {
    id: id(),
    userId: ref('user_id', () => users.id),
    toolId: ref('tool_id', () => tools.id),
    razorpayOrderId: text('razorpay_order_id').notNull(),
    razorpayPaymentId: text('razorpay_payment_id'),
    amount: integer('amount').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    billing: jsonb('billing').$type<BillingDetails>().notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('created'),
    failureReason: text('failure_reason'),
    /** The coupon the order was priced with (upper case), its catalogue price and the discount, in subunits. */
    couponCode: text('coupon_code'),
    listPrice: integer('list_price'),
    discount: integer('discount'),
    /** How many seats the order buys (decision 051): `list_price` is the unit price times this. */
    seats: integer('seats').notNull().default(1),
    /** What the order buys; its module (orders/kinds/) prices, settles and refunds it. */
    kind: text('kind', { enum: ORDER_KINDS }).notNull().default('new-license'),
    /**
     * The license the order acts on, for every kind but a new license: the team license "Add seats" adds `seats`
     * to. No foreign key in this file (licenses.ts imports this one for purchases); the migration adds one.
     */
    licenseId: uuid('license_id'),
    /**
     * What the order's kind fixed when it was placed, for its settlement and refund: the edition bought, or the
     * editions an upgrade goes from and to (orders/kinds/). Null for orders of a tool without editions.
     */
    terms: jsonb('terms').$type<OrderTerms>(),
    /**
     * TDS the buyer deducts under s.194J (issue 68), in subunits: `amount` is still the order's total (its invoice's);
     * what is due is `amount - tds_amount`, and the firm holds the rest as receivable until the Form 16A arrives.
     */
    tdsAmount: integer('tds_amount').notNull().default(0),
    /** The PAN the buyer deducts TDS under (its Form 16A names it); null without TDS. */
    buyerPan: text('buyer_pan'),
    createdAt: createdAt(),
    paidAt: ts('paid_at'),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('orders_razorpay_order_id_key').on(t.razorpayOrderId),
    uniqueIndex('orders_razorpay_payment_id_key').on(t.razorpayPaymentId),
    index('orders_user_id_idx').on(t.userId),
    index('orders_status_created_idx').on(t.status, t.createdAt),
    // Keyset pages of the Orders list, and a customer's orders newest first.
    index('orders_created_at_id_idx').on(t.createdAt, t.id),
    index('orders_user_id_created_at_idx').on(t.userId, t.createdAt),
    // The Overview's last 30 days of sales.
    index('orders_paid_at_idx').on(t.paidAt).where(sql`${t.status} = 'paid'`),
  ],
);

/** Status history of an order, for the operator. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: ref('order_id', () => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ORDER_EVENT_KINDS }).notNull(),
    detail: jsonb('detail'),
    createdAt: createdAt(),
  },
  (t) => [index('order_events_order_id_idx').on(t.orderId)],
);

/**
 * A buyer's request for a refund under one of the Refund Policy's exceptions (docs/decisions/044): open until the
 * operator approves it (the refund itself is `refundOrder`) or declines it with a reason. One open per order.
 */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: id(),
    orderId: ref('order_id', () => orders.id, { onDelete: 'cascade' }),
    userId: ref('user_id', () => users.id),
    reason: text('reason', { enum: REFUND_REQUEST_REASONS }).notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: REFUND_REQUEST_STATUSES }).notNull().default('open'),
    declineReason: text('decline_reason'),
    decidedBy: text('decided_by'),
    createdAt: createdAt(),
    decidedAt: ts('decided_at'),
  },
  (t) => [
    uniqueIndex('refund_requests_open_order_key').on(t.orderId).where(sql`${t.status} = 'open'`),
    index('refund_requests_status_created_idx').on(t.status, t.createdAt),
  ],
);

export const purchases = pgTable(
  'purchases',
  {
    id: id(),
    userId: ref('user_id', () => users.id),
    toolId: ref('tool_id', () => tools.id),
    orderId: ref('order_id', () => orders.id),
    createdAt: createdAt(),
    refundedAt: ts('refunded_at'),
  },
  (t) => [
    uniqueIndex('purchases_order_id_key').on(t.orderId),
    uniqueIndex('purchases_owner_tool_live_key').on(t.userId, t.toolId).where(sql`${t.refundedAt} is null`),
    index('purchases_user_id_idx').on(t.userId),
  ],
);

/**
 * An order paid against a proforma invoice (issue 68; the document itself is invoices' `proforma_invoices`): until
 * when it may be paid, the Razorpay payment link for what is due, and what the expiry job has done (reminded a week
 * before, expired). The job claims rows with SKIP LOCKED and stamps them in the transaction that queues the email.
 */
export const proformaTerms = pgTable(
  'proforma_terms',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id),
    validUntil: ts('valid_until').notNull(),
    /** Razorpay's payment link (plink_…) and its address; null when Razorpay could not make one (bank transfer). */
    paymentLinkId: text('payment_link_id'),
    paymentLinkUrl: text('payment_link_url'),
    reminderSentAt: ts('reminder_sent_at'),
    expiredAt: ts('expired_at'),
  },
  (t) => [
    uniqueIndex('proforma_terms_payment_link_id_key').on(t.paymentLinkId),
    // The expiry job's look-up: open proformas by their end.
    index('proforma_terms_open_valid_until_idx').on(t.validUntil).where(sql`${t.expiredAt} is null`),
  ],
);

export const RECEIPT_METHODS = ['payment-link', 'bank-transfer'] as const;

/**
 * Money received for an order outside the checkout (issue 68): a payment link's payment (its pay_… id) or a bank
 * transfer the operator records (its UTR). An order paid against a proforma settles when its receipts cover what is
 * due; one reference is recorded once. A receipt after the proforma expired is `late` until the operator settles
 * the order or returns the money (`returned_at`, with the return transfer's reference).
 */
export const orderReceipts = pgTable(
  'order_receipts',
  {
    id: id(),
    orderId: ref('order_id', () => orders.id),
    method: text('method', { enum: RECEIPT_METHODS }).notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    reference: text('reference').notNull(),
    /** The Razorpay order a link's payment opened (the order takes it at settlement, so a refund finds it). */
    razorpayOrderId: text('razorpay_order_id'),
    /** The day the money arrived, India time (YYYY-MM-DD): a transfer's value date. */
    receivedOn: text('received_on').notNull(),
    recordedAt: ts('recorded_at').notNull(),
    /** Who recorded it, as the audit log names them; 'razorpay' for a payment link's payment. */
    recordedBy: text('recorded_by').notNull(),
    late: boolean('late').notNull().default(false),
    returnedAt: ts('returned_at'),
    returnReference: text('return_reference'),
  },
  (t) => [
    uniqueIndex('order_receipts_method_reference_key').on(t.method, t.reference),
    index('order_receipts_order_id_idx').on(t.orderId),
  ],
);

/**
 * The buyer's TDS certificate (Form 16A) for an order it deducted TDS from: the PDF in storage, kept with the order
 * for the statutory period (erasure keeps it, as it keeps invoices), and the operator's check of it.
 */
export const tdsCertificates = pgTable('tds_certificates', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id),
  storageKey: text('storage_key').notNull(),
  fileName: text('file_name').notNull(),
  size: integer('size').notNull(),
  sha256: text('sha256').notNull(),
  uploadedAt: ts('uploaded_at').notNull(),
  checkedAt: ts('checked_at'),
  checkedBy: text('checked_by'),
});
