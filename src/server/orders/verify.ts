import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { SHOP_ENDPOINT_MESSAGES } from '../../shared/shop';
import type { verifyPaymentSchema } from '../../shared/shop-schemas';
import { orders } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { verifyCheckoutSignature } from '../payments/signatures';
import { type FulfilOutcome, fulfilOrder } from './settle';

const VERIFY_MESSAGES = SHOP_ENDPOINT_MESSAGES.verify;

/**
 * POST /api/verify-payment/: the browser reports a payment on one of the caller's orders. The checkout signature
 * must hold over the order id we stored; then the order is fulfilled (once, whichever path gets there first).
 */
export async function verifyPayment(
  ctx: AppContext,
  userId: string,
  body: z.output<typeof verifyPaymentSchema>,
): Promise<{ orderId: string; outcome: FulfilOutcome }> {
  const [order] = await ctx.db
    .select({ id: orders.id, razorpayOrderId: orders.razorpayOrderId })
    .from(orders)
    .where(and(eq(orders.razorpayOrderId, body.razorpay_order_id), eq(orders.userId, userId)))
    .limit(1);
  if (!order) throw new DomainError('not_found', VERIFY_MESSAGES.orderNotFound);

  // Signed over the order id we stored, never over ids the browser could swap.
  const valid = verifyCheckoutSignature(ctx.config.razorpay.keySecret, {
    orderId: order.razorpayOrderId,
    paymentId: body.razorpay_payment_id,
    signature: body.razorpay_signature,
  });
  if (!valid) throw new DomainError('invalid_signature', VERIFY_MESSAGES.badSignature);

  const outcome = await fulfilOrder(ctx, {
    razorpayOrderId: order.razorpayOrderId,
    razorpayPaymentId: body.razorpay_payment_id,
    source: 'verify',
  });
  if (outcome.result === 'fulfilled' || outcome.result === 'already-paid')
    return { orderId: order.id, outcome };
  if (outcome.result === 'duplicate-payment')
    throw new DomainError('duplicate_payment', VERIFY_MESSAGES.duplicate);
  throw new DomainError('payment_not_settled', VERIFY_MESSAGES.notSettled);
}
