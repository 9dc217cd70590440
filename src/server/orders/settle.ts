import { and, eq } from 'drizzle-orm';
import { forgetOwnedTools } from '../catalogue/catalogue';
import { markCouponUsed, releaseCouponOf } from '../coupons/redemptions';
import type { DbOrTx, Tx } from '../db';
import { isUniqueViolation } from '../db/driver-errors';
import { orders } from '../db/schema/orders';
import type { PaidAgainstProforma } from '../invoices/document';
import { issueInvoice } from '../invoices/issue';
import { settledInrFor } from '../invoices/settlement';
import type { AppContext } from '../kernel/context';
import { forgetLicenses } from '../licenses/memory';
import { recordOrderEvent } from './events';
import { kindOf } from './kinds';
import { refundOrder } from './refund';

const DUPLICATE_PAYMENT_REASON = 'Duplicate purchase of an owned tool';

/** Who reported the payment: the checkout's paths, a free order's coupon, or an operator recording a transfer. */
export type FulfilSource = 'verify' | 'webhook' | 'reconciler' | 'coupon' | 'admin' | 'dashboard';

/** The order id of a free order (a 100 % coupon) in place of Razorpay's: there is no Razorpay order. */
export const FREE_ORDER_PREFIX = 'free_';

export type FulfilInput = {
  razorpayOrderId: string;
  razorpayPaymentId: string;
  source: FulfilSource;
  /** The amount Razorpay reports as paid, when the caller knows it (webhook, reconciler). */
  paid?: { amount: number; currency: string };
  /** Rupees (paise) Razorpay settled for a payment in another currency, when the caller holds the payment. */
  settledInr?: number | null;
};

export type FulfilOutcome =
  | {
      result: 'fulfilled';
      orderId: string;
      purchaseId: string;
      userId: string;
      currency: string;
      /** What a license answers changed (an upgrade): the instance's memory of licenses is stale. */
      licenseChanged?: boolean;
    }
  | { result: 'already-paid'; orderId: string }
  | { result: 'unknown-order' }
  | { result: 'amount-mismatch'; orderId: string }
  /** Paid for a tool the buyer already owns (two orders, both paid): the payment is refunded. */
  | { result: 'duplicate-payment'; orderId: string; refunded: boolean };

/**
 * Runs a fulfilment transaction. When a racing path committed first, the loser fails on a unique constraint;
 * running it again sees the committed state and becomes a no-op (or, for a second order, a duplicate payment).
 */
export async function inFulfilmentTransaction<T>(ctx: AppContext, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.transaction(work);
    } catch (error) {
      if (attempt >= 3 || !isUniqueViolation(error)) throw error;
    }
  }
}

type OrderRow = typeof orders.$inferSelect;

/**
 * What fulfilment is told of a payment: no payment id for a free order (a 100 % coupon, nothing was paid) or one
 * paid by bank transfer. An order paid against a proforma names it, with the money received (issue 68).
 */
type PaymentInput = Omit<FulfilInput, 'razorpayPaymentId'> & {
  razorpayPaymentId: string | null;
  paidAgainst?: PaidAgainstProforma;
};

/**
 * A paid order that cannot be fulfilled (the tool is already owned, the team cannot take the seats): its coupon
 * use goes back. A free one simply never happened; a paid one is recorded for the refund that follows the
 * transaction (afterFulfilment).
 */
async function refuseOrder(
  tx: Tx,
  order: OrderRow,
  input: PaymentInput,
  now: Date,
  refusal: { reason: string; detail: Record<string, unknown> },
): Promise<FulfilOutcome> {
  await releaseCouponOf(tx, order.id);
  if (input.razorpayPaymentId === null)
    await tx
      .update(orders)
      .set({ status: 'failed', failureReason: refusal.reason, paidAt: null, updatedAt: now })
      .where(eq(orders.id, order.id));
  else
    await recordOrderEvent(
      tx,
      order.id,
      'duplicate-payment',
      { source: input.source, paymentId: input.razorpayPaymentId, ...refusal.detail },
      now,
    );
  return { result: 'duplicate-payment', orderId: order.id, refunded: false };
}

/** A fulfilled order's coupon use, its invoice and its 'paid' event (what it paid for in `detail`). */
async function settleOrder(
  ctx: AppContext,
  tx: Tx,
  order: OrderRow,
  input: PaymentInput,
  now: Date,
  { detail, invoiceLine }: { detail: Record<string, unknown>; invoiceLine: string },
) {
  await markCouponUsed(tx, order.id, now);
  const invoice = await issueInvoice(ctx, tx, {
    orderId: order.id,
    itemDescription: invoiceLine,
    razorpayPaymentId: input.razorpayPaymentId,
    settledInr: input.settledInr,
    paidAgainst: input.paidAgainst,
  });
  await recordOrderEvent(
    tx,
    order.id,
    'paid',
    { source: input.source, paymentId: input.razorpayPaymentId, ...detail },
    now,
  );
  return invoice;
}

const fulfilled = (
  order: OrderRow,
  settled: { purchaseId: string; licenseChanged?: boolean },
): FulfilOutcome => ({
  result: 'fulfilled',
  orderId: order.id,
  purchaseId: settled.purchaseId,
  userId: order.userId,
  currency: order.currency,
  ...(settled.licenseChanged ? { licenseChanged: true } : {}),
});

/**
 * The heart of the shop, inside the caller's transaction: lock the order, and unless it is already paid, mark it
 * paid and write the purchase, the license and the delivery email together. Whichever of verify, webhook and
 * reconciler gets here first does the work; the others find the order paid and do nothing.
 */
export async function applyPayment(ctx: AppContext, tx: Tx, input: PaymentInput): Promise<FulfilOutcome> {
  const [order] = await tx
    .select()
    .from(orders)
    .where(eq(orders.razorpayOrderId, input.razorpayOrderId))
    .limit(1)
    .for('update');
  if (!order) return { result: 'unknown-order' };
  if (order.status === 'paid' || order.status === 'refunded')
    return { result: 'already-paid', orderId: order.id };

  const now = ctx.clock.now();
  // What the payment must be: the total, less the TDS the buyer deducts (issue 68).
  const due = order.amount - order.tdsAmount;
  if (input.paid && (input.paid.amount !== due || input.paid.currency !== order.currency)) {
    await recordOrderEvent(
      tx,
      order.id,
      'amount-mismatch',
      { source: input.source, paymentId: input.razorpayPaymentId, paid: input.paid },
      now,
    );
    return { result: 'amount-mismatch', orderId: order.id };
  }
  return settleLockedOrder(ctx, tx, order, input, now);
}

/**
 * Settles an order the caller has locked and found payable: marks it paid, lets its kind give what was bought, then
 * issues the invoice and queues the kind's delivery, all in the caller's transaction. The Razorpay order id moves
 * to the one the payment names (a payment link opens its own order), so a refund finds the payment.
 */
export async function settleLockedOrder(
  ctx: AppContext,
  tx: Tx,
  order: OrderRow,
  input: PaymentInput,
  now: Date,
): Promise<FulfilOutcome> {
  await tx
    .update(orders)
    .set({
      status: 'paid',
      razorpayOrderId: input.razorpayOrderId,
      razorpayPaymentId: input.razorpayPaymentId,
      paidAt: now,
      updatedAt: now,
    })
    .where(eq(orders.id, order.id));

  const kind = kindOf(order);
  const paidOrder = {
    ...order,
    razorpayOrderId: input.razorpayOrderId,
    razorpayPaymentId: input.razorpayPaymentId,
  };
  const settlement = await kind.fulfil(ctx, tx, paidOrder, now);
  if (!settlement.settled)
    return refuseOrder(tx, order, input, now, { reason: settlement.reason, detail: settlement.detail });
  const invoice = await settleOrder(ctx, tx, order, input, now, settlement);
  await settlement.deliver(invoice);
  return fulfilled(order, settlement);
}

/**
 * A second paid order for a tool the buyer already owns: give the money back, through the one refund path. A
 * failed refund stays on the order's history for the operator; the order remains 'paid' without a purchase.
 */
export async function refundDuplicatePayment(
  ctx: AppContext,
  orderId: string,
  razorpayPaymentId: string,
): Promise<boolean> {
  try {
    await refundOrder(ctx, { orderId, source: 'duplicate-payment', reason: DUPLICATE_PAYMENT_REASON });
    return true;
  } catch (error) {
    await recordOrderEvent(
      ctx.db,
      orderId,
      'refund-failed',
      { paymentId: razorpayPaymentId, message: (error as Error).message },
      ctx.clock.now(),
    );
    return false;
  }
}

/**
 * What runs after the fulfilment transaction committed: the buyer's catalogue shows the purchase at once, and
 * refunds never happen inside a database transaction.
 */
export async function afterFulfilment(
  ctx: AppContext,
  outcome: FulfilOutcome,
  razorpayPaymentId: string | null,
): Promise<FulfilOutcome> {
  if (outcome.result === 'fulfilled') {
    forgetOwnedTools(ctx, outcome.userId);
    if (outcome.licenseChanged) forgetLicenses(ctx);
    ctx.metrics.orders.inc({ event: 'paid', currency: outcome.currency });
  }
  if (outcome.result !== 'duplicate-payment' || razorpayPaymentId === null) return outcome;
  return { ...outcome, refunded: await refundDuplicatePayment(ctx, outcome.orderId, razorpayPaymentId) };
}

/** Fulfils a paid Razorpay order exactly once, whichever path calls first. */
export async function fulfilOrder(ctx: AppContext, input: FulfilInput): Promise<FulfilOutcome> {
  // Asked before the transaction: no network call while the order and the invoice counter are locked.
  const settledInr = await settledInrFor(ctx, { ...input, baseAmount: input.settledInr });
  const outcome = await inFulfilmentTransaction(ctx, (tx) => applyPayment(ctx, tx, { ...input, settledInr }));
  return afterFulfilment(ctx, outcome, input.razorpayPaymentId);
}

/**
 * Fulfils a free order (a 100 % coupon) exactly once, however many times it is confirmed at the same time: the
 * same locked, unique-guarded transaction as a paid order, with no payment id and no Razorpay call.
 */
export async function fulfilFreeOrder(ctx: AppContext, razorpayOrderId: string): Promise<FulfilOutcome> {
  if (!razorpayOrderId.startsWith(FREE_ORDER_PREFIX)) return { result: 'unknown-order' };
  const outcome = await inFulfilmentTransaction(ctx, async (tx): Promise<FulfilOutcome> => {
    const [order] = await tx
      .select({ currency: orders.currency })
      .from(orders)
      .where(eq(orders.razorpayOrderId, razorpayOrderId));
    if (!order) return { result: 'unknown-order' };
    // "Paid" 0: applyPayment refuses the order if its amount is anything else.
    return applyPayment(ctx, tx, {
      razorpayOrderId,
      razorpayPaymentId: null,
      source: 'coupon',
      paid: { amount: 0, currency: order.currency },
    });
  });
  return afterFulfilment(ctx, outcome, null);
}

/**
 * Notes a failed payment attempt. The order stays open: Razorpay lets the buyer retry on the same order, and a
 * later successful payment must still be fulfilled.
 */
export async function recordPaymentFailure(
  ctx: AppContext,
  db: DbOrTx,
  input: { razorpayOrderId: string; razorpayPaymentId?: string; code?: string; description?: string },
): Promise<boolean> {
  const now = ctx.clock.now();
  const reason = (input.description ?? input.code ?? 'Payment failed').slice(0, 500);
  const [order] = await db
    .update(orders)
    .set({ failureReason: reason, updatedAt: now })
    .where(and(eq(orders.razorpayOrderId, input.razorpayOrderId), eq(orders.status, 'created')))
    .returning({ id: orders.id });
  if (!order) return false;
  await recordOrderEvent(
    db,
    order.id,
    'payment-failed',
    { paymentId: input.razorpayPaymentId, code: input.code, description: input.description },
    now,
  );
  return true;
}
