import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { CouponCheckResponse, couponCheckSchema } from '../../shared/coupons';
import { COUPON_MESSAGES } from '../../shared/coupons';
import { fromSubunits, orderAmountSubunits } from '../../shared/money';
import { SHOP_MESSAGES } from '../../shared/shop';
import type { AppContext } from '../context';
import { coupons } from '../db/schema';
import { notFound } from '../http/errors';
import { findActiveTool } from '../shop/catalogue';
import { countUses, couponRefused, priceWith, refusalOf } from './redemptions';

/**
 * POST /api/coupons/check: what the code would take off this tool's price for this buyer now. Only a preview:
 * create-payment judges the code again, under the coupon's lock, when the order is made.
 */
export async function checkCoupon(
  ctx: AppContext,
  userId: string,
  body: z.output<typeof couponCheckSchema>,
): Promise<CouponCheckResponse> {
  const tool = await findActiveTool(ctx.db, body.toolId);
  if (!tool || tool.comingSoon) throw notFound(SHOP_MESSAGES.payment.toolNotFound);
  const now = ctx.clock.now();
  const [coupon] = await ctx.db.select().from(coupons).where(eq(coupons.code, body.code));
  const uses = coupon
    ? await countUses(ctx.db, { couponId: coupon.id, userId, now, ignoreOpenOrderOf: { toolId: tool.id } })
    : { live: 0, buyer: 0 };
  const refusal = refusalOf(coupon, { toolId: tool.id, now, uses });
  if (refusal || !coupon) throw couponRefused(refusal ?? COUPON_MESSAGES.invalid);
  const priced = priceWith(coupon, orderAmountSubunits(tool, body.currency), body.currency);
  return {
    code: coupon.code,
    price: fromSubunits(priced.price),
    discount: fromSubunits(priced.discount),
    currency: body.currency,
  };
}
