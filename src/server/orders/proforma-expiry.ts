import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import { orderPagePath } from '../../shared/order-detail';
import { PROFORMA_REMINDER_DAYS } from '../../shared/proforma';
import { releaseCouponOf } from '../coupons/redemptions';
import type { Tx } from '../db';
import { users } from '../db/schema/accounts';
import { proformaInvoices } from '../db/schema/invoices';
import { orders, proformaTerms } from '../db/schema/orders';
import type { TaxDocument } from '../invoices/document';
import type { AppContext } from '../kernel/context';
import { type EmailBlock, renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';
import { recordOrderEvent } from './events';
import { proformaFacts } from './proforma';
import { cancelPaymentLinkOf } from './receipts';

/**
 * Unpaid proformas (issue 68): the buyer is reminded a week before the proforma's validity ends, and when it has
 * ended the order is cancelled, its coupon use returned and the buyer told. Each proforma's row is claimed with
 * FOR UPDATE SKIP LOCKED and stamped in the transaction that queues its email, so two instances send it once.
 * Money that still arrives afterwards is a late receipt for the operator (orders/receipts.ts).
 */

/** How often the job looks; a reminder or an expiry is at most this late. */
export const PROFORMA_NOTICES_INTERVAL_MS = 10 * 60 * 1000;
const BATCH = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

type Due = {
  orderId: string;
  status: string;
  name: string;
  email: string;
  /** An erased account is not written to: its proforma simply expires. */
  erasedAt: Date | null;
  number: string;
  document: unknown;
};

async function claim(tx: Tx, when: ReturnType<typeof and>): Promise<Due[]> {
  return tx
    .select({
      orderId: orders.id,
      status: orders.status,
      name: users.name,
      email: users.email,
      erasedAt: users.erasedAt,
      number: proformaInvoices.number,
      document: proformaInvoices.document,
    })
    .from(proformaTerms)
    .innerJoin(orders, eq(orders.id, proformaTerms.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(proformaInvoices, eq(proformaInvoices.orderId, orders.id))
    .where(when)
    .limit(BATCH)
    .for('update', { of: proformaTerms, skipLocked: true });
}

/** Queues the buyer's email about the proforma: a greeting, the facts given, and a button to the order's page. */
async function mailBuyer(
  ctx: AppContext,
  tx: Tx,
  now: Date,
  row: Due,
  mail: { kind: string; subject: string; heading: string; text: string; facts: EmailBlock[] },
) {
  const email = renderEmail({
    subject: mail.subject,
    heading: mail.heading,
    blocks: [
      { kind: 'paragraph', text: `Hello ${row.name}, ${mail.text}` },
      ...mail.facts,
      {
        kind: 'button',
        href: `${ctx.config.publicUrl}${orderPagePath(row.orderId)}`,
        label: 'See the order',
      },
    ],
  });
  await enqueueMail(ctx, tx, { to: row.email, ...email, kind: mail.kind, ref: `order:${row.orderId}` }, now);
}

async function remind(ctx: AppContext, tx: Tx, now: Date): Promise<number> {
  const due = await claim(
    tx,
    and(
      eq(orders.status, 'created'),
      isNull(users.erasedAt),
      isNull(proformaTerms.reminderSentAt),
      isNull(proformaTerms.expiredAt),
      gt(proformaTerms.validUntil, now),
      lte(proformaTerms.validUntil, new Date(now.getTime() + PROFORMA_REMINDER_DAYS * DAY_MS)),
    ),
  );
  for (const row of due) {
    await mailBuyer(ctx, tx, now, row, {
      kind: 'proforma-reminder',
      subject: `Your proforma invoice ${row.number} expires in ${PROFORMA_REMINDER_DAYS} days`,
      heading: 'Your proforma invoice expires soon',
      text: `we have not received the payment of proforma invoice ${row.number} yet. Its prices and coupon are held until the date below; after it the order is cancelled. If you have paid already, thank you: nothing more is needed.`,
      facts: proformaFacts(row.document as TaxDocument),
    });
    await tx.update(proformaTerms).set({ reminderSentAt: now }).where(eq(proformaTerms.orderId, row.orderId));
    await recordOrderEvent(tx, row.orderId, 'proforma-reminder', { proforma: row.number }, now);
  }
  return due.length;
}

/** Proformas past their validity: an unpaid order is cancelled and its buyer told; each is marked expired. */
async function expire(ctx: AppContext, tx: Tx, now: Date): Promise<string[]> {
  const due = await claim(tx, and(isNull(proformaTerms.expiredAt), lte(proformaTerms.validUntil, now)));
  const cancelled: string[] = [];
  for (const row of due) {
    await tx.update(proformaTerms).set({ expiredAt: now }).where(eq(proformaTerms.orderId, row.orderId));
    // A payment recorded meanwhile locked the order first and settled it: then there is nothing to cancel.
    const [open] = await tx
      .update(orders)
      .set({ status: 'cancelled', failureReason: `Proforma ${row.number} expired unpaid`, updatedAt: now })
      .where(and(eq(orders.id, row.orderId), eq(orders.status, 'created')))
      .returning({ id: orders.id });
    if (!open) continue;
    await releaseCouponOf(tx, row.orderId);
    await recordOrderEvent(
      tx,
      row.orderId,
      'proforma-expired',
      { proforma: row.number, source: 'proforma' },
      now,
    );
    cancelled.push(row.orderId);
    if (row.erasedAt) continue;
    await mailBuyer(ctx, tx, now, row, {
      kind: 'proforma-expired',
      subject: `Proforma invoice ${row.number} has expired`,
      heading: 'Your proforma invoice has expired',
      text: `proforma invoice ${row.number} was not paid by its validity date, so the order is cancelled and its prices and coupon are no longer held. If you paid it after all, write to us: we will complete the order or return the money. You can order again at any time.`,
      facts: [],
    });
  }
  return cancelled;
}

/** One run of the job: the reminders and expiries due now; the expired proformas' links are then cancelled. */
export async function sendProformaNotices(ctx: AppContext): Promise<{ reminders: number; expired: number }> {
  const now = ctx.clock.now();
  const done = await ctx.db.transaction(async (tx) => ({
    reminders: await remind(ctx, tx, now),
    expired: await expire(ctx, tx, now),
  }));
  for (const orderId of done.expired) await cancelPaymentLinkOf(ctx, orderId);
  return { reminders: done.reminders, expired: done.expired.length };
}
