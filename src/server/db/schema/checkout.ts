import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { tools } from './catalogue';
import { id, ref, ts } from './columns';

/**
 * One trial per machine and tool, whichever account starts it: the machine's fingerprint, keyed-hashed
 * (data-secrets.ts), is claimed by the first trial that activates on it.
 */
/**
 * Checkout recovery (payments/checkout-recovery.ts): a signed-in buyer who opened the billing dialog or a payment
 * for a tool, one row per buyer and tool. Opening again moves `opened_at` and keeps the coupon last entered; at
 * most two reminders are ever sent for it (`reminders_sent`), the first marking `first_reminder_at`, which tells
 * the Overview which later orders were recovered. Deleted with the account's personal data.
 */
export const checkoutStarts = pgTable(
  'checkout_starts',
  {
    id: id(),
    userId: ref('user_id', () => users.id, { onDelete: 'cascade' }),
    toolId: ref('tool_id', () => tools.id, { onDelete: 'cascade' }),
    couponCode: text('coupon_code'),
    openedAt: ts('opened_at').notNull(),
    remindersSent: integer('reminders_sent').notNull().default(0),
    firstReminderAt: ts('first_reminder_at'),
    lastReminderAt: ts('last_reminder_at'),
  },
  (t) => [
    uniqueIndex('checkout_starts_user_tool_key').on(t.userId, t.toolId),
    // The reminder job's scan: only rows that may still get a reminder.
    index('checkout_starts_due_idx').on(t.openedAt).where(sql`${t.remindersSent} < 2`),
  ],
);
