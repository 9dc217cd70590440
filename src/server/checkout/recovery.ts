import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { CHECKOUT_REMINDER_DELAYS_MS, checkoutLink } from '../../shared/checkout-recovery';
import { unsubscribeUrls, wantsTopic } from '../account/email-preferences';
import type { DbOrTx, Tx } from '../db';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { checkoutStarts } from '../db/schema/checkout';
import { purchases } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import { toolLabel } from '../licenses/delivery-email';
import { renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';

/**
 * Checkout recovery: remembers that a signed-in buyer opened the billing dialog or a payment for a tool, and sends
 * the reminders that fall due (optional mail, `users.checkout_reminder_emails`). At most two per buyer and tool,
 * ever; none once the tool is bought. Rows are claimed with FOR UPDATE SKIP LOCKED and marked in the transaction
 * that queues the email, so several instances never send one twice.
 */

/** How often the job looks; a reminder is at most this late. */
export const CHECKOUT_REMINDERS_INTERVAL_MS = 10 * 60 * 1000;
const BATCH = 100;
const [FIRST_AFTER_MS, LAST_AFTER_MS] = CHECKOUT_REMINDER_DELAYS_MS;
const REMINDERS = CHECKOUT_REMINDER_DELAYS_MS.length;

/**
 * Remembers (or renews) a buyer's open checkout of a tool. Opening again moves the start, so the reminders count
 * from the last time the buyer looked; a coupon entered now replaces the one remembered, none keeps it.
 */
export async function recordCheckoutStart(
  db: DbOrTx,
  start: { userId: string; toolId: string; couponCode?: string | null; at: Date },
): Promise<void> {
  const couponCode = start.couponCode || null;
  await db
    .insert(checkoutStarts)
    .values({ userId: start.userId, toolId: start.toolId, couponCode, openedAt: start.at })
    .onConflictDoUpdate({
      target: [checkoutStarts.userId, checkoutStarts.toolId],
      set: {
        openedAt: start.at,
        couponCode: sql`coalesce(excluded.coupon_code, ${checkoutStarts.couponCode})`,
      },
    });
}

function renderReminder(parts: {
  name: string;
  label: string;
  link: string;
  last: boolean;
  unsubscribePage: string;
}) {
  return renderEmail({
    subject: parts.last ? `Still thinking about ${parts.label}?` : `You left ${parts.label} at the checkout`,
    heading: parts.last ? 'Your checkout is still waiting' : 'You left your checkout open',
    blocks: [
      {
        kind: 'paragraph',
        text: parts.last
          ? `Hello ${parts.name}, you looked at buying ${parts.label} yesterday. This is our last reminder: the link below opens the checkout where you left it.`
          : `Hello ${parts.name}, you opened the checkout for ${parts.label} but did not finish paying. If something went wrong or you have a question, reply to this email; the link below opens the checkout again.`,
      },
      { kind: 'button', href: parts.link, label: `Buy ${parts.label}` },
      {
        kind: 'paragraph',
        text: `You get this email because you started buying a tool while signed in. Turn checkout reminders off: ${parts.unsubscribePage}`,
      },
    ],
  });
}

async function sendDue(ctx: AppContext, tx: Tx, now: Date): Promise<number> {
  const at = now.getTime();
  const bought = sql`exists (select 1 from ${purchases} where ${purchases.userId} = ${checkoutStarts.userId}
    and ${purchases.toolId} = ${checkoutStarts.toolId} and ${purchases.refundedAt} is null)`;
  const due = await tx
    .select({
      id: checkoutStarts.id,
      userId: users.id,
      name: users.name,
      email: users.email,
      wants: wantsTopic('checkoutReminders'),
      toolId: tools.id,
      toolName: tools.name,
      device: tools.device,
      couponCode: checkoutStarts.couponCode,
      remindersSent: checkoutStarts.remindersSent,
    })
    .from(checkoutStarts)
    .innerJoin(users, eq(users.id, checkoutStarts.userId))
    .innerJoin(tools, eq(tools.id, checkoutStarts.toolId))
    .where(
      and(
        isNull(users.erasedAt),
        eq(tools.active, true),
        eq(tools.comingSoon, false),
        sql`not ${bought}`,
        or(
          and(
            eq(checkoutStarts.remindersSent, 0),
            lte(checkoutStarts.openedAt, new Date(at - FIRST_AFTER_MS)),
          ),
          and(
            eq(checkoutStarts.remindersSent, 1),
            lte(checkoutStarts.openedAt, new Date(at - LAST_AFTER_MS)),
            // Never the two back to back, when the job was away for a day.
            lte(checkoutStarts.lastReminderAt, new Date(at - FIRST_AFTER_MS)),
          ),
        ),
      ),
    )
    .limit(BATCH)
    .for('update', { of: checkoutStarts, skipLocked: true });
  for (const row of due) {
    if (!row.wants) {
      // Opted out: handled for good, without an email.
      await tx.update(checkoutStarts).set({ remindersSent: REMINDERS }).where(eq(checkoutStarts.id, row.id));
      continue;
    }
    const number = row.remindersSent + 1;
    const links = unsubscribeUrls(ctx, row.userId, 'checkoutReminders');
    const email = renderReminder({
      name: row.name,
      label: toolLabel(row.toolName, row.device),
      link: checkoutLink(ctx.config.publicUrl, row.toolId, row.couponCode),
      last: number === REMINDERS,
      unsubscribePage: links.page,
    });
    await enqueueMail(
      ctx,
      tx,
      {
        to: row.email,
        ...email,
        kind: 'checkout-reminder',
        ref: `checkout:${row.id}:${number}`,
        listUnsubscribe: links.oneClick,
      },
      now,
    );
    await tx
      .update(checkoutStarts)
      .set({ remindersSent: number, lastReminderAt: now, ...(number === 1 ? { firstReminderAt: now } : {}) })
      .where(eq(checkoutStarts.id, row.id));
  }
  return due.length;
}

/** One run of the job: the checkout reminders due now. */
export async function sendCheckoutReminders(ctx: AppContext): Promise<{ reminders: number }> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => ({ reminders: await sendDue(ctx, tx, now) }));
}

/** Erasure: the billing dialogs the person opened, kept only to remind them. */
export async function forgetCheckoutStartsOf(tx: Tx, userId: string): Promise<void> {
  await tx.delete(checkoutStarts).where(eq(checkoutStarts.userId, userId));
}
