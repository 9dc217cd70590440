import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { CURRENCIES } from '../../../shared/constants';
import { users } from './accounts';
import { createdAt, id, ref, ts } from './columns';
import { orders } from './orders';

/**
 * Discount codes (coupons/): a percentage or fixed INR / USD amounts, for all tools (tool_ids null) or some, between
 * optional dates, with an optional total number of uses; one use per buyer unless reusable.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: id(),
    /** Stored upper case; looked up by the upper-cased code the buyer typed. */
    code: text('code').notNull(),
    percent: integer('percent'),
    amountInrPaise: integer('amount_inr_paise'),
    amountUsdCents: integer('amount_usd_cents'),
    toolIds: uuid('tool_ids').array(),
    startsAt: ts('starts_at'),
    endsAt: ts('ends_at'),
    maxUses: integer('max_uses'),
    reusable: boolean('reusable').notNull().default(false),
    disabledAt: ts('disabled_at'),
    createdAt: createdAt(),
    /** Who created it, as the audit log names them. */
    createdBy: text('created_by').notNull(),
  },
  (t) => [uniqueIndex('coupons_code_key').on(t.code)],
);

/**
 * One use of a coupon per order: reserved when the order is created, used when it is fulfilled, released when the
 * order can no longer be paid (docs/decisions/036-coupons.md).
 */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: id(),
    couponId: ref('coupon_id', () => coupons.id),
    orderId: ref('order_id', () => orders.id),
    userId: ref('user_id', () => users.id),
    state: text('state', { enum: ['reserved', 'used', 'released'] }).notNull(),
    discount: integer('discount').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    createdAt: createdAt(),
    usedAt: ts('used_at'),
    /**
     * Until when a reservation counts. Null: a checkout's, held COUPON_HOLD_MS after it was made; an order paid
     * against a proforma holds its use until the proforma's validity ends (issue 68).
     */
    heldUntil: ts('held_until'),
  },
  (t) => [
    uniqueIndex('coupon_redemptions_order_id_key').on(t.orderId),
    index('coupon_redemptions_coupon_state_idx').on(t.couponId, t.state),
  ],
);
