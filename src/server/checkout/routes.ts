import type { FastifyInstance } from 'fastify';
import { type CheckoutQuote, checkoutQuoteSchema } from '../../shared/checkout-quote';
import { COUPON_MESSAGES } from '../../shared/coupons';
import { requireUser } from '../auth/session';
import type { AppContext } from '../context';
import { parseInput } from '../http/errors';
import { quoteCheckout } from './quote';

export async function checkoutRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/api/checkout/quote', async (request, reply): Promise<CheckoutQuote> => {
    const user = await requireUser(ctx, request);
    // A quote reprices as the buyer types: its own budget, generous for that, tight enough for a script.
    await ctx.limiter.consume({
      key: `checkout-quote:user:${user.id}`,
      limit: 60,
      windowMs: 60_000,
      message: 'Too many requests. Please wait a minute and try again.',
    });
    // A code in a quote is a try like one at /api/coupons/check, on the same counters. Issue 50 moves this budget
    // into checkCoupon itself; once it has, these two lines go.
    if ((request.body as { couponCode?: unknown } | undefined)?.couponCode) {
      await ctx.limiter.consume({
        key: `coupon-try:user:${user.id}`,
        limit: 10,
        windowMs: 60_000,
        message: COUPON_MESSAGES.tooMany,
      });
      await ctx.limiter.consume({
        key: `coupon-try:ip:${request.ip}`,
        limit: 30,
        windowMs: 60_000,
        message: COUPON_MESSAGES.tooMany,
      });
    }
    reply.header('cache-control', 'no-store');
    return quoteCheckout(ctx, user.id, parseInput(checkoutQuoteSchema, request.body));
  });
}
