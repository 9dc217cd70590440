import { and, asc, eq, gt, isNotNull, isNull, like, lt, not } from 'drizzle-orm';
import { releaseCouponOf, releaseExpiredReservations } from '../coupons/redemptions';
import { orders, proformaTerms } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import { recordOrderEvent } from './events';
import { PENDING_ORDER_PREFIX } from './place';
import { PROFORMA_ORDER_PREFIX } from './proforma';
import { afterLinkPayment, recordLinkPayment } from './receipts';
import { FREE_ORDER_PREFIX, fulfilFreeOrder, fulfilOrder, inFulfilmentTransaction } from './settle';

/** Give the browser and the webhook a head start before asking Razorpay ourselves. */
export const RECONCILE_MIN_AGE_MS = 2 * 60 * 1000;
/** Razorpay orders can be paid for a while; after a week an unpaid order is abandoned for good. */
export const RECONCILE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
export const RECONCILE_INTERVAL_MS = 60 * 1000;
const BATCH = 50;

export type ReconcileSummary = {
  checked: number;
  fulfilled: number;
  alreadyPaid: number;
  /** Paid orders for a tool the buyer already owned: refunded instead of fulfilled. */
  duplicates: number;
  unpaid: number;
  abandoned: number;
  /** Payment links of open proformas found paid: the webhook was lost, the payment is recorded now. */
  linkPayments: number;
  errors: Array<{ orderId: string; message: string }>;
};

/**
 * Asks Razorpay about orders still open after a couple of minutes and fulfils the ones it says were captured:
 * the safety net for a closed browser tab plus a lost webhook. Orders whose Razorpay order was never created
 * (the server stopped between the two steps) are closed as failed.
 */
export async function reconcileOnce(ctx: AppContext): Promise<ReconcileSummary> {
  const now = ctx.clock.now().getTime();
  const youngest = new Date(now - RECONCILE_MIN_AGE_MS);
  const oldest = new Date(now - RECONCILE_MAX_AGE_MS);
  const summary: ReconcileSummary = {
    checked: 0,
    fulfilled: 0,
    alreadyPaid: 0,
    duplicates: 0,
    unpaid: 0,
    abandoned: 0,
    linkPayments: 0,
    errors: [],
  };

  const orphans = await ctx.db
    .update(orders)
    .set({ status: 'failed', failureReason: 'Razorpay order was never created', updatedAt: new Date(now) })
    .where(
      and(
        eq(orders.status, 'created'),
        like(orders.razorpayOrderId, `${PENDING_ORDER_PREFIX}%`),
        lt(orders.createdAt, youngest),
      ),
    )
    .returning({ id: orders.id });
  for (const orphan of orphans) {
    await releaseCouponOf(ctx.db, orphan.id);
    await recordOrderEvent(ctx.db, orphan.id, 'abandoned', { reason: 'no Razorpay order' }, new Date(now));
  }
  summary.abandoned = orphans.length;
  // Reservations past their hold stopped counting already; this only names them so.
  await releaseExpiredReservations(ctx.db, new Date(now));

  const open = await ctx.db
    .select({ id: orders.id, razorpayOrderId: orders.razorpayOrderId })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'created'),
        not(like(orders.razorpayOrderId, `${PENDING_ORDER_PREFIX}%`)),
        // Paid against a proforma: there is no Razorpay order to ask about, its payment link is asked below.
        not(like(orders.razorpayOrderId, `${PROFORMA_ORDER_PREFIX}%`)),
        lt(orders.createdAt, youngest),
        gt(orders.createdAt, oldest),
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(BATCH);

  const gateway = ctx.gateway;
  for (const order of open) {
    summary.checked++;
    try {
      if (order.razorpayOrderId.startsWith(FREE_ORDER_PREFIX)) {
        // A free order whose fulfilment was cut short (the server stopped): nothing to ask Razorpay.
        const outcome = await fulfilFreeOrder(ctx, order.razorpayOrderId);
        if (outcome.result === 'fulfilled') summary.fulfilled++;
        continue;
      }
      const payments = await gateway.fetchOrderPayments(order.razorpayOrderId);
      const captured = payments.find((payment) => payment.status === 'captured');
      if (!captured) {
        summary.unpaid++;
        continue;
      }
      const outcome = await fulfilOrder(ctx, {
        razorpayOrderId: order.razorpayOrderId,
        razorpayPaymentId: captured.id,
        source: 'reconciler',
        paid: { amount: captured.amount, currency: captured.currency },
        settledInr: captured.base_amount,
      });
      if (outcome.result === 'fulfilled') summary.fulfilled++;
      else if (outcome.result === 'duplicate-payment') summary.duplicates++;
      else if (outcome.result === 'already-paid') summary.alreadyPaid++;
      else summary.errors.push({ orderId: order.id, message: outcome.result });
    } catch (error) {
      summary.errors.push({ orderId: order.id, message: (error as Error).message });
    }
  }
  await reconcilePaymentLinks(ctx, youngest, summary);
  return summary;
}

/**
 * The safety net for a lost `payment_link.paid`: asks Razorpay about the links of open proformas issued more than a
 * couple of minutes ago, and records a paid one's payment as the webhook would have (a later webhook is then a
 * duplicate).
 */
async function reconcilePaymentLinks(ctx: AppContext, youngest: Date, summary: ReconcileSummary) {
  const open = await ctx.db
    .select({ orderId: orders.id, linkId: proformaTerms.paymentLinkId })
    .from(proformaTerms)
    .innerJoin(orders, eq(orders.id, proformaTerms.orderId))
    .where(
      and(
        eq(orders.status, 'created'),
        isNotNull(proformaTerms.paymentLinkId),
        isNull(proformaTerms.expiredAt),
        lt(orders.createdAt, youngest),
      ),
    )
    .orderBy(asc(proformaTerms.validUntil))
    .limit(BATCH);
  for (const { orderId, linkId } of open) {
    if (!linkId) continue;
    summary.checked++;
    try {
      const link = await ctx.gateway.fetchPaymentLink(linkId);
      const paid =
        link.status === 'paid' ? link.payments?.find((payment) => payment.status === 'captured') : undefined;
      if (!paid) {
        summary.unpaid++;
        continue;
      }
      const payment = await ctx.gateway.fetchPayment(paid.payment_id);
      const outcome = await inFulfilmentTransaction(ctx, (tx) =>
        recordLinkPayment(ctx, tx, {
          paymentLinkId: linkId,
          paymentId: paid.payment_id,
          amount: paid.amount,
          razorpayOrderId: payment.order_id,
          paidAt: ctx.clock.now(),
          source: 'reconciler',
        }),
      );
      await afterLinkPayment(ctx, outcome);
      if (outcome.result === 'settled') summary.linkPayments++;
    } catch (error) {
      summary.errors.push({ orderId, message: (error as Error).message });
    }
  }
}
