import { and, eq, gt, isNotNull, isNull, lte, notExists, sql } from 'drizzle-orm';
import { formatSubunits } from '../../shared/money';
import { RENEWAL_GRACE_DAYS, RENEWAL_REMINDER_DAYS, renewalPriceSubunits } from '../../shared/update-periods';
import { unsubscribeUrls, wantsTopic } from '../account/email-preferences';
import type { Tx } from '../db';
import { users } from '../db/schema/accounts';
import { toolEditions, tools } from '../db/schema/catalogue';
import { licenses, renewalReminders } from '../db/schema/licenses';
import { orders, purchases } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import { indiaDay } from '../kernel/operator-time';
import { toolLabel } from '../licenses/delivery-email';
import { renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';

/**
 * The renewal reminders (decision 059; optional mail, `users.renewal_reminder_emails`): 30 and 7 days before a
 * license's updates end, and on the day they end. Each is recorded in `renewal_reminders` in the transaction that
 * queues it, keyed by the license, the end and the stage, so several instances never send one twice; a renewal moves
 * the end and the next end is reminded afresh. A buyer who turned them off is recorded without an email.
 */

export const RENEWAL_REMINDERS_INTERVAL_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 100;

type Stage = (typeof renewalReminders.$inferSelect)['stage'];

/** When each stage is due: from its day until the next stage's (the end's own, until the grace ends). */
function window(stage: Stage, now: Date) {
  const [first, second] = RENEWAL_REMINDER_DAYS;
  const until = licenses.updatesUntil;
  const daysAhead = (days: number) => new Date(now.getTime() + days * DAY_MS);
  if (stage === '30-days') return and(lte(until, daysAhead(first)), gt(until, daysAhead(second)));
  if (stage === '7-days') return and(lte(until, daysAhead(second)), gt(until, now));
  return and(lte(until, now), gt(until, daysAhead(-RENEWAL_GRACE_DAYS)));
}

function renderReminder(
  stage: Stage,
  parts: {
    name: string;
    label: string;
    until: Date;
    price: string;
    renewUrl: string;
    unsubscribePage: string;
  },
) {
  const day = indiaDay(parts.until);
  const lead =
    stage === 'ended'
      ? `Hello ${parts.name}, the updates included with your license for ${parts.label} ended on ${day}. The version you have keeps working for ever; versions released from now on need a renewal.`
      : `Hello ${parts.name}, the updates included with your license for ${parts.label} end on ${day}. The version you have keeps working for ever; renew to keep getting new versions.`;
  return renderEmail({
    subject:
      stage === 'ended'
        ? `Updates for ${parts.label} have ended`
        : `Updates for ${parts.label} end on ${day}`,
    heading: stage === 'ended' ? 'Your updates have ended' : 'Your updates end soon',
    blocks: [
      { kind: 'paragraph', text: lead },
      { kind: 'button', href: parts.renewUrl, label: `Renew updates for ${parts.price}` },
      {
        kind: 'paragraph',
        text: `You get these emails because you own ${parts.label}. Turn renewal reminders off: ${parts.unsubscribePage}`,
      },
    ],
  });
}

async function sendDue(ctx: AppContext, tx: Tx, stage: Stage, now: Date): Promise<number> {
  const due = await tx
    .select({
      licenseId: licenses.id,
      updatesUntil: licenses.updatesUntil,
      seats: licenses.seats,
      userId: users.id,
      name: users.name,
      email: users.email,
      wants: wantsTopic('renewalReminders'),
      currency: orders.currency,
      toolName: tools.name,
      device: tools.device,
      tool: {
        updatesMonths: tools.updatesMonths,
        renewalPriceInrPaise: tools.renewalPriceInrPaise,
        renewalPriceUsdCents: tools.renewalPriceUsdCents,
      },
      edition: toolEditions,
    })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .innerJoin(orders, eq(orders.id, purchases.orderId))
    .innerJoin(users, eq(users.id, licenses.holderId))
    .innerJoin(tools, eq(tools.id, purchases.toolId))
    .leftJoin(toolEditions, eq(toolEditions.id, licenses.editionId))
    .where(
      and(
        // A team is reminded through its owner's license, not each seat.
        isNull(licenses.teamLicenseId),
        eq(licenses.status, 'active'),
        isNull(purchases.refundedAt),
        isNotNull(licenses.updatesUntil),
        window(stage, now),
        notExists(
          tx
            .select({ one: sql`1` })
            .from(renewalReminders)
            .where(
              and(
                eq(renewalReminders.licenseId, licenses.id),
                eq(renewalReminders.updatesUntil, licenses.updatesUntil),
                eq(renewalReminders.stage, stage),
              ),
            ),
        ),
      ),
    )
    .limit(BATCH)
    .for('update', { of: licenses, skipLocked: true });
  let sent = 0;
  for (const row of due) {
    const until = row.updatesUntil as Date;
    // The row first: whichever instance records it sends it; the other finds it recorded.
    const claimed = await tx
      .insert(renewalReminders)
      .values({ licenseId: row.licenseId, updatesUntil: until, stage, sentAt: now })
      .onConflictDoNothing()
      .returning({ licenseId: renewalReminders.licenseId });
    if (claimed.length === 0 || !row.wants) continue;
    const price = renewalPriceSubunits(row.edition ?? row.tool, row.currency);
    if (price === null) continue;
    const links = unsubscribeUrls(ctx, row.userId, 'renewalReminders');
    await enqueueMail(
      ctx,
      tx,
      {
        to: row.email,
        ...renderReminder(stage, {
          name: row.name,
          label: toolLabel(row.toolName, row.device),
          until,
          price: formatSubunits(price * row.seats, row.currency),
          renewUrl: `${ctx.config.publicUrl}/my-tools?renew=${row.licenseId}`,
          unsubscribePage: links.page,
        }),
        kind: stage === 'ended' ? 'renewal-ended' : 'renewal-reminder',
        ref: `license:${row.licenseId}`,
        listUnsubscribe: links.oneClick,
      },
      now,
    );
    sent++;
  }
  return sent;
}

/** One run of the job: each stage's reminders due now. */
export async function sendRenewalReminders(ctx: AppContext): Promise<{ reminders: number }> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    let reminders = 0;
    for (const stage of ['30-days', '7-days', 'ended'] as const)
      reminders += await sendDue(ctx, tx, stage, now);
    return { reminders };
  });
}
