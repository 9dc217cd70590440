import type { z } from 'zod';
import type { CheckoutQuote, checkoutQuoteSchema } from '../../shared/checkout-quote';
import { type CouponGuesser, judgeCoupon } from '../coupons/check';
import { buyerPriceSums, priceOrder } from '../invoices/pricing';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { kindOfRequest } from './kinds';

/**
 * POST /api/checkout/quote: the order summary of the billing dialog. The coupon is judged by the coupon check
 * itself (coupons/check.ts, whatever budget it keeps), and a code that does not apply is part of the answer; the
 * price comes from the one pricing function that create-payment and the invoice use.
 */
export async function quoteCheckout(
  ctx: AppContext,
  guesser: CouponGuesser,
  body: z.output<typeof checkoutQuoteSchema>,
): Promise<CheckoutQuote> {
  // The order's kind says who may place it and at what unit price, exactly as when it is placed.
  const { tool, unitPrice, seats } = await kindOfRequest(body).plan(ctx, { id: guesser.userId }, body);
  let discount = 0;
  let coupon: CheckoutQuote['coupon'] = null;
  if (body.couponCode) {
    try {
      // Judged on the order's list price (unit × seats), as create-payment reserves it.
      const checked = await judgeCoupon(ctx, guesser, {
        toolId: tool.id,
        currency: body.currency,
        code: body.couponCode,
        listPrice: unitPrice * seats,
      });
      discount = checked.discount;
      coupon = { code: checked.coupon.code, applied: true, message: `${checked.coupon.code} applied` };
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'coupon_refused')) throw error;
      coupon = { code: body.couponCode, applied: false, message: error.message };
    }
  }

  const price = priceOrder({
    unitPrice,
    seats,
    discount,
    currency: body.currency,
    billing:
      body.currency === 'INR'
        ? { state: body.state, country: 'India' }
        : { country: body.country || 'India' },
    firm: ctx.config.firm,
    tds: body.tds && body.currency === 'INR',
  });
  return { ...buyerPriceSums(price), currency: body.currency, coupon };
}
