import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Currency } from '../../shared/constants';
import type { CouponCheckResponse, couponCheckSchema } from '../../shared/coupons';
import { COUPON_MESSAGES } from '../../shared/coupons';
import { fromSubunits, orderAmountSubunits } from '../../shared/money';
import { SHOP_ENDPOINT_MESSAGES } from '../../shared/shop';
import { findActiveTool } from '../catalogue/catalogue';
import { coupons } from '../db/schema/coupons';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { type CouponPrice, countUses, couponRefused, priceWith, refusalOf } from './redemptions';

/**
 * Guessing codes is the abuse to stop: every code tried counts, per account and per network address, before it is
 * judged, in one budget whatever asks (the coupon check, create-payment, a price quote): they all judge a code
 * through `judgeCoupon`.
 */
const TRIES_PER_ACCOUNT = { limit: 10, windowMs: 60_000, message: COUPON_MESSAGES.tooMany };
const TRIES_PER_ADDRESS = { limit: 30, windowMs: 60_000, message: COUPON_MESSAGES.tooMany };

/** Who is trying a code: the account and the network address the request came from. */
export type CouponGuesser = { userId: string; ip: string };

/**
 * What the code does to this list price for this buyer now, or a 400 with the reason; a 429 once the guesser's
 * budget is spent. Judges without holding anything: create-payment judges the code again, under the coupon's lock,
 * when it reserves a use (redemptions.ts reserveCoupon).
 */
export async function judgeCoupon(
  ctx: AppContext,
  guesser: CouponGuesser,
  input: { code: string; toolId: string; currency: Currency; listPrice: number },
): Promise<CouponPrice> {
  await ctx.limiter.consume({ key: `coupon-try:user:${guesser.userId}`, ...TRIES_PER_ACCOUNT });
  await ctx.limiter.consume({ key: `coupon-try:ip:${guesser.ip}`, ...TRIES_PER_ADDRESS });
  const now = ctx.clock.now();
  const [coupon] = await ctx.db.select().from(coupons).where(eq(coupons.code, input.code));
  const uses = coupon
    ? await countUses(ctx.db, {
        couponId: coupon.id,
        userId: guesser.userId,
        now,
        ignoreOpenOrderOf: { toolId: input.toolId },
      })
    : { live: 0, buyer: 0 };
  const refusal = refusalOf(coupon, { toolId: input.toolId, now, uses });
  if (refusal || !coupon) throw couponRefused(refusal ?? COUPON_MESSAGES.invalid);
  return priceWith(coupon, input.listPrice, input.currency);
}

/** POST /api/coupons/check: what the code would take off this tool's price for this buyer now. Only a preview. */
export async function checkCoupon(
  ctx: AppContext,
  guesser: CouponGuesser,
  body: z.output<typeof couponCheckSchema>,
): Promise<CouponCheckResponse> {
  const tool = await findActiveTool(ctx.db, body.toolId);
  if (!tool || tool.comingSoon)
    throw new DomainError('not_found', SHOP_ENDPOINT_MESSAGES.payment.toolNotFound);
  const priced = await judgeCoupon(ctx, guesser, {
    code: body.code,
    toolId: tool.id,
    currency: body.currency,
    listPrice: orderAmountSubunits(tool, body.currency),
  });
  return {
    code: priced.coupon.code,
    price: fromSubunits(priced.price),
    discount: fromSubunits(priced.discount),
    currency: body.currency,
  };
}
