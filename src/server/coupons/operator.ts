import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Currency } from '../../shared/constants';
import {
  type CouponDetail,
  type CouponSummary,
  type CouponUse,
  couponEnd,
  couponStart,
  type NewCoupon,
  normaliseCouponCode,
} from '../../shared/coupons';
import { fromSubunits, toSubunits } from '../../shared/money';
import type { DbOrTx } from '../db';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { couponRedemptions, coupons } from '../db/schema/coupons';
import { orders } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { type Actor, actorName, recordAudit } from '../operator/audit';
import { type CouponRow, heldAt } from './redemptions';

/**
 * The operator's coupons, for the dashboard and the command line alike: each change is one transaction that
 * writes its audit entry (decision 033). Coupons are never deleted or edited: a mistake is disabled and a new
 * code made, so every order keeps pointing at the terms it was priced with.
 */

type Uses = { used: number; reserved: number };

function stateOf(coupon: CouponRow, uses: Uses, now: Date): CouponSummary['state'] {
  if (coupon.disabledAt) return 'disabled';
  if (coupon.endsAt && coupon.endsAt <= now) return 'expired';
  if (coupon.startsAt && coupon.startsAt > now) return 'scheduled';
  if (coupon.maxUses !== null && uses.used + uses.reserved >= coupon.maxUses) return 'used-up';
  return 'active';
}

const toSummary = (coupon: CouponRow, uses: Uses, now: Date): CouponSummary => ({
  id: coupon.id,
  code: coupon.code,
  percent: coupon.percent,
  amountInr: coupon.amountInrPaise === null ? null : fromSubunits(coupon.amountInrPaise),
  amountUsd: coupon.amountUsdCents === null ? null : fromSubunits(coupon.amountUsdCents),
  toolIds: coupon.toolIds ?? [],
  startsAt: coupon.startsAt?.toISOString() ?? null,
  endsAt: coupon.endsAt?.toISOString() ?? null,
  maxUses: coupon.maxUses,
  reusable: coupon.reusable,
  disabledAt: coupon.disabledAt?.toISOString() ?? null,
  createdAt: coupon.createdAt.toISOString(),
  createdBy: coupon.createdBy,
  used: uses.used,
  reserved: uses.reserved,
  state: stateOf(coupon, uses, now),
});

/** Used and still-held uses of the given coupons. */
async function usesOf(db: DbOrTx, couponIds: string[], now: Date): Promise<Map<string, Uses>> {
  const result = new Map<string, Uses>();
  if (couponIds.length === 0) return result;
  const rows = await db
    .select({
      couponId: couponRedemptions.couponId,
      used: sql<number>`count(*) filter (where ${couponRedemptions.state} = 'used')`.mapWith(Number),
      reserved:
        sql<number>`count(*) filter (where ${couponRedemptions.state} = 'reserved' and (${heldAt(now)}))`.mapWith(
          Number,
        ),
    })
    .from(couponRedemptions)
    .where(inArray(couponRedemptions.couponId, couponIds))
    .groupBy(couponRedemptions.couponId);
  for (const row of rows) result.set(row.couponId, { used: row.used, reserved: row.reserved });
  return result;
}

const NO_USES: Uses = { used: 0, reserved: 0 };

function invalid(message: string): DomainError {
  return new DomainError('invalid', message);
}

/**
 * Creates a coupon from `newCouponSchema`'s parsed output (each adapter parses its input with it once); refuses a
 * code that exists (in any case) or tools that do not.
 */
export async function createCoupon(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  value: NewCoupon,
): Promise<CouponSummary> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    if (value.toolIds.length > 0) {
      const found = await tx.select({ id: tools.id }).from(tools).where(inArray(tools.id, value.toolIds));
      const missing = value.toolIds.filter((id) => !found.some((tool) => tool.id === id));
      if (missing.length > 0) throw invalid(`No tool with id ${missing.join(', ')}.`);
    }
    const [row] = await tx
      .insert(coupons)
      .values({
        code: value.code,
        percent: value.percent,
        amountInrPaise: value.amountInr === null ? null : toSubunits(value.amountInr),
        amountUsdCents: value.amountUsd === null ? null : toSubunits(value.amountUsd),
        toolIds: value.toolIds.length > 0 ? [...new Set(value.toolIds)] : null,
        startsAt: value.startsAt ? new Date(couponStart(value.startsAt)) : null,
        endsAt: value.endsAt ? new Date(couponEnd(value.endsAt)) : null,
        maxUses: value.maxUses,
        reusable: value.reusable,
        createdAt: now,
        createdBy: actorName(actor),
      })
      .onConflictDoNothing({ target: coupons.code })
      .returning();
    if (!row) throw new DomainError('refused', `A coupon with the code ${value.code} exists.`);
    const summary = toSummary(row, NO_USES, now);
    await recordAudit(tx, actor, { action: 'coupon.create', target: `coupon:${row.code}`, after: summary });
    return summary;
  });
}

async function findCoupon(db: DbOrTx, code: string): Promise<CouponRow> {
  const [row] = await db
    .select()
    .from(coupons)
    .where(eq(coupons.code, normaliseCouponCode(code)));
  if (!row) throw new DomainError('not_found', `No coupon with the code ${normaliseCouponCode(code)}.`);
  return row;
}

/** Stops a code at once: reservations already held stay (their orders may still be paid); no new ones. */
export async function disableCoupon(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  code: string,
): Promise<CouponSummary> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const found = await findCoupon(tx, code);
    const [row] = await tx.select().from(coupons).where(eq(coupons.id, found.id)).for('update');
    if (!row) throw new DomainError('not_found', `No coupon with the code ${found.code}.`);
    if (row.disabledAt) throw new DomainError('refused', `The coupon ${row.code} is already disabled.`);
    const [updated] = await tx
      .update(coupons)
      .set({ disabledAt: now })
      .where(eq(coupons.id, row.id))
      .returning();
    if (!updated) throw new Error('coupon update returned no row');
    const uses = (await usesOf(tx, [row.id], now)).get(row.id) ?? NO_USES;
    await recordAudit(tx, actor, {
      action: 'coupon.disable',
      target: `coupon:${row.code}`,
      before: { disabledAt: null },
      after: { disabledAt: now.toISOString() },
    });
    return toSummary(updated, uses, now);
  });
}

/** Every coupon, newest first, with its uses. */
export async function listCoupons(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<CouponSummary[]> {
  const now = ctx.clock.now();
  const rows = await ctx.db.select().from(coupons).orderBy(desc(coupons.createdAt));
  const uses = await usesOf(
    ctx.db,
    rows.map((row) => row.id),
    now,
  );
  return rows.map((row) => toSummary(row, uses.get(row.id) ?? NO_USES, now));
}

/** A coupon's page: its terms, each order that took it, and what the used ones brought in. */
export async function couponDetail(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  code: string,
): Promise<CouponDetail> {
  const now = ctx.clock.now();
  const coupon = await findCoupon(ctx.db, code);
  const rows = await ctx.db
    .select({
      orderId: couponRedemptions.orderId,
      email: users.email,
      toolName: tools.name,
      state: couponRedemptions.state,
      createdAt: couponRedemptions.createdAt,
      currency: couponRedemptions.currency,
      discount: couponRedemptions.discount,
      listPrice: orders.listPrice,
      paid: orders.amount,
    })
    .from(couponRedemptions)
    .innerJoin(orders, eq(orders.id, couponRedemptions.orderId))
    .innerJoin(users, eq(users.id, couponRedemptions.userId))
    .innerJoin(tools, eq(tools.id, orders.toolId))
    .where(and(eq(couponRedemptions.couponId, coupon.id)))
    .orderBy(desc(couponRedemptions.createdAt))
    .limit(500);
  const uses: CouponUse[] = rows.map((row) => ({
    orderId: row.orderId,
    email: row.email,
    toolName: row.toolName,
    state: row.state,
    currency: row.currency,
    listPrice: row.listPrice ?? row.paid + row.discount,
    discount: row.discount,
    paid: row.paid,
    createdAt: row.createdAt.toISOString(),
  }));
  const revenue = new Map<Currency, CouponDetail['revenue'][number]>();
  for (const use of uses) {
    if (use.state !== 'used') continue;
    const entry = revenue.get(use.currency) ?? { currency: use.currency, orders: 0, paid: 0, discount: 0 };
    entry.orders += 1;
    entry.paid += use.paid;
    entry.discount += use.discount;
    revenue.set(use.currency, entry);
  }
  const summaryUses = (await usesOf(ctx.db, [coupon.id], now)).get(coupon.id) ?? NO_USES;
  return { ...toSummary(coupon, summaryUses, now), uses, revenue: [...revenue.values()] };
}
