import { eq } from 'drizzle-orm';
import { orders } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';

/**
 * The rupees (paise) Razorpay settled for a payment in another currency — its `base_amount` — which a USD tax
 * invoice states beside the dollar amounts. The webhook and the reconciler already hold the payment and pass its
 * value; the browser's verify call does not, so the payment is asked for here, before the fulfilment transaction
 * (no network inside it). Null for INR orders, and when Razorpay cannot say: the invoice then omits the line.
 */
export async function settledInrFor(
  ctx: Pick<AppContext, 'db' | 'gateway'>,
  input: { razorpayOrderId: string; razorpayPaymentId: string; baseAmount?: number | null },
): Promise<number | null> {
  const [order] = await ctx.db
    .select({ currency: orders.currency })
    .from(orders)
    .where(eq(orders.razorpayOrderId, input.razorpayOrderId))
    .limit(1);
  if (!order || order.currency === 'INR') return null;
  if (input.baseAmount != null) return input.baseAmount;
  try {
    const payments = await ctx.gateway.fetchOrderPayments(input.razorpayOrderId);
    const payment = payments.find((candidate) => candidate.id === input.razorpayPaymentId);
    return payment?.base_amount ?? null;
  } catch {
    return null;
  }
}
