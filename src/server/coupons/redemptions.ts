import { and, eq, inArray, isNull, not, sql } from 'drizzle-orm';
import type { Currency } from '../../shared/constants';
import { COUPON_MESSAGES, couponDiscount } from '../../shared/coupons';
import type { DbOrTx, Tx } from '../db';
import { couponRedemptions, coupons } from '../db/schema/coupons';
import { orders } from '../db/schema/orders';
import { DomainError } from '../kernel/domain-error';

/**
 * A coupon use is reserved with the order and held while its checkout can still be paid: at most 30 minutes, so
 * unpaid orders cannot hoard a limited code (decision 042). A payment that arrives later is still honoured at
 * fulfilment (markCouponUsed), the buyer having paid the discounted price. An order paid against a proforma holds
 * its use until the proforma's validity ends (`held_until`, issue 68).
 */
export const COUPON_HOLD_MS = 30 * 60 * 1000;

/** A reservation still held at `now`: a checkout's for 30 minutes after it was made, a proforma's until its end. */
export const heldAt = (now: Date) =>
  sql`(${couponRedemptions.heldUntil} is null and ${couponRedemptions.createdAt} > ${new Date(now.getTime() - COUPON_HOLD_MS)}) or ${couponRedemptions.heldUntil} > ${now}`;

export type CouponRow = typeof coupons.$inferSelect;

/** Why a code cannot be used, as the buyer is told (400 {message}). */
export const couponRefused = (message: string) => new DomainError('coupon_refused', message);

export type CouponUses = { live: number; buyer: number };

/**
 * Uses that count against the coupon's limits: used ones, and reservations still held. `ignoreOpenOrder` leaves
 * out the buyer's reservations on open orders for the same tool: a buyer who closed the checkout and tries again
 * takes over that reservation rather than needing a second one.
 */
export async function countUses(
  db: DbOrTx,
  input: { couponId: string; userId: string; now: Date; ignoreOpenOrderOf?: { toolId: string } },
): Promise<CouponUses> {
  // A proforma's reservation is never taken over by a new checkout: the proforma can still be paid.
  const ignored = input.ignoreOpenOrderOf
    ? sql`(${couponRedemptions.state} = 'reserved' and ${couponRedemptions.heldUntil} is null and ${couponRedemptions.userId} = ${input.userId} and ${orders.toolId} = ${input.ignoreOpenOrderOf.toolId})`
    : sql`false`;
  const counts = sql`(${couponRedemptions.state} = 'used' or (${couponRedemptions.state} = 'reserved' and (${heldAt(input.now)}))) and not ${ignored}`;
  const [row] = await db
    .select({
      live: sql<number>`count(*) filter (where ${counts})`.mapWith(Number),
      buyer:
        sql<number>`count(*) filter (where ${counts} and ${couponRedemptions.userId} = ${input.userId})`.mapWith(
          Number,
        ),
    })
    .from(couponRedemptions)
    .innerJoin(orders, eq(orders.id, couponRedemptions.orderId))
    .where(eq(couponRedemptions.couponId, input.couponId));
  return { live: row?.live ?? 0, buyer: row?.buyer ?? 0 };
}

/**
 * The reason a coupon cannot be used for this tool by this buyer now, or null when it can. An unknown code, a
 * disabled one and one not yet started answer alike: nothing tells a guesser which codes exist.
 */
export function refusalOf(
  coupon: CouponRow | undefined,
  input: { toolId: string; now: Date; uses: CouponUses },
): string | null {
  const now = input.now.getTime();
  if (!coupon || coupon.disabledAt || (coupon.startsAt && coupon.startsAt.getTime() > now))
    return COUPON_MESSAGES.invalid;
  if (coupon.endsAt && coupon.endsAt.getTime() <= now) return COUPON_MESSAGES.expired;
  if (coupon.toolIds && coupon.toolIds.length > 0 && !coupon.toolIds.includes(input.toolId))
    return COUPON_MESSAGES.wrongTool;
  if (!coupon.reusable && input.uses.buyer > 0) return COUPON_MESSAGES.alreadyUsed;
  if (coupon.maxUses !== null && input.uses.live >= coupon.maxUses) return COUPON_MESSAGES.usedUp;
  return null;
}

export type CouponPrice = { coupon: CouponRow; listPrice: number; discount: number; price: number };

/** What a coupon does to a list price (couponDiscount, the one rule). */
export function priceWith(coupon: CouponRow, listPrice: number, currency: Currency): CouponPrice {
  const discount = couponDiscount(listPrice, coupon, currency);
  return { coupon, listPrice, discount, price: listPrice - discount };
}

/**
 * Takes a use of the coupon for an order about to be created, inside the order's transaction. The coupon row is
 * locked (`FOR UPDATE`) while the uses are counted and until the reservation commits, so buyers racing for the
 * last uses queue on it: each sees the ones before it, and no more reservations are made than the limit allows.
 * The buyer's own reservation on an open order for the same tool is released first (a retried checkout).
 * Throws couponRefused with the reason; `recordReservation` writes the use once the order row exists.
 */
export async function reserveCoupon(
  tx: Tx,
  input: { code: string; userId: string; toolId: string; currency: Currency; listPrice: number; now: Date },
): Promise<CouponPrice> {
  const [coupon] = await tx.select().from(coupons).where(eq(coupons.code, input.code)).for('update');
  if (coupon) {
    const superseded = tx
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(eq(orders.userId, input.userId), eq(orders.toolId, input.toolId), eq(orders.status, 'created')),
      );
    await tx
      .update(couponRedemptions)
      .set({ state: 'released' })
      .where(
        and(
          eq(couponRedemptions.couponId, coupon.id),
          eq(couponRedemptions.state, 'reserved'),
          isNull(couponRedemptions.heldUntil),
          inArray(couponRedemptions.orderId, superseded),
        ),
      );
  }
  const uses = coupon
    ? await countUses(tx, { couponId: coupon.id, userId: input.userId, now: input.now })
    : { live: 0, buyer: 0 };
  const refusal = refusalOf(coupon, { toolId: input.toolId, now: input.now, uses });
  if (refusal || !coupon) throw couponRefused(refusal ?? COUPON_MESSAGES.invalid);
  return priceWith(coupon, input.listPrice, input.currency);
}

/** Writes the reservation of `reserveCoupon` for the order just inserted, in the same transaction. */
export async function recordReservation(
  tx: Tx,
  input: {
    priced: CouponPrice;
    orderId: string;
    userId: string;
    currency: Currency;
    now: Date;
    /** Held longer than a checkout's 30 minutes: an order paid against a proforma, until its validity ends. */
    heldUntil?: Date;
  },
): Promise<void> {
  await tx.insert(couponRedemptions).values({
    couponId: input.priced.coupon.id,
    orderId: input.orderId,
    userId: input.userId,
    state: 'reserved',
    discount: input.priced.discount,
    currency: input.currency,
    createdAt: input.now,
    heldUntil: input.heldUntil ?? null,
  });
}

/**
 * Counts the order's coupon use, inside the fulfilment transaction. A payment that arrives after its reservation
 * was released (over 30 minutes late) is still honoured: the buyer paid the discounted price Razorpay was told.
 */
export async function markCouponUsed(tx: Tx, orderId: string, now: Date): Promise<void> {
  await tx
    .update(couponRedemptions)
    .set({ state: 'used', usedAt: now })
    .where(eq(couponRedemptions.orderId, orderId));
}

/** Gives the order's reserved use back (its order failed, or will never be fulfilled). */
export async function releaseCouponOf(db: DbOrTx, orderId: string): Promise<void> {
  await db
    .update(couponRedemptions)
    .set({ state: 'released' })
    .where(and(eq(couponRedemptions.orderId, orderId), eq(couponRedemptions.state, 'reserved')));
}

/** Marks reservations past their hold as released (they already stopped counting); returns how many. */
export async function releaseExpiredReservations(db: DbOrTx, now: Date): Promise<number> {
  const released = await db
    .update(couponRedemptions)
    .set({ state: 'released' })
    .where(and(eq(couponRedemptions.state, 'reserved'), not(heldAt(now))))
    .returning({ id: couponRedemptions.id });
  return released.length;
}
