import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import { TRIAL_REMINDER_DAYS } from '../../shared/trials';
import { unsubscribeUrls, wantsTopic } from '../account/email-preferences';
import type { Tx } from '../db';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { licenses } from '../db/schema/licenses';
import { trials } from '../db/schema/trials';
import type { AppContext } from '../kernel/context';
import { toolLabel } from '../licenses/delivery-email';
import { type EmailBlock, renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';
import { queueTrialEvent } from '../webhooks/events';
import { buyUrl, DAY_MS, indiaTime } from './trials';

/**
 * The trial emails (optional mail, `users.trial_emails`): a reminder three days before a trial ends and a notice
 * when it has ended, each at most once per trial. Rows are claimed with FOR UPDATE SKIP LOCKED and marked sent in
 * the transaction that queues the email, so several instances never send one twice. A buyer who turned trial
 * emails off is marked as handled without an email.
 */

/** How often the job looks; a reminder is at most this late. */
export const TRIAL_EMAILS_INTERVAL_MS = 10 * 60 * 1000;
const BATCH = 100;

type Occasion = 'reminder' | 'ended';

const DUE = {
  reminder: (now: Date) =>
    and(
      isNull(trials.reminderSentAt),
      isNull(trials.endNoticeSentAt),
      gt(licenses.expiresAt, now),
      lte(licenses.expiresAt, new Date(now.getTime() + TRIAL_REMINDER_DAYS * DAY_MS)),
      // A trial shorter than the reminder's lead would be reminded as it starts: its start email says it all.
      sql`${licenses.expiresAt} - ${trials.startedAt} > make_interval(days => ${TRIAL_REMINDER_DAYS})`,
    ),
  ended: (now: Date) => and(isNull(trials.endNoticeSentAt), lte(licenses.expiresAt, now)),
};

const MARK = {
  reminder: (now: Date) => ({ reminderSentAt: now }),
  ended: (now: Date) => ({ endNoticeSentAt: now }),
};

function renderTrialEmail(
  occasion: Occasion,
  parts: { name: string; label: string; endsAt: Date; buyUrl: string; unsubscribePage: string },
) {
  const when = indiaTime(parts.endsAt);
  const blocks: EmailBlock[] = [
    {
      kind: 'paragraph',
      text:
        occasion === 'reminder'
          ? `Hello ${parts.name}, your free trial of ${parts.label} ends on ${when} (India time). Buy it before then and it keeps running with the same license, on the same computer.`
          : `Hello ${parts.name}, your free trial of ${parts.label} ended on ${when} (India time). Buy it to keep using it: the same license starts working again, with nothing to reinstall.`,
    },
    { kind: 'button', href: parts.buyUrl, label: `Buy ${parts.label}` },
    {
      kind: 'paragraph',
      text: `You get these emails because you started a free trial. Turn trial emails off: ${parts.unsubscribePage}`,
    },
  ];
  return renderEmail({
    subject:
      occasion === 'reminder'
        ? `Your free trial of ${parts.label} ends in ${TRIAL_REMINDER_DAYS} days`
        : `Your free trial of ${parts.label} has ended`,
    heading: occasion === 'reminder' ? 'Your free trial ends soon' : 'Your free trial has ended',
    blocks,
  });
}

async function sendDue(ctx: AppContext, tx: Tx, occasion: Occasion, now: Date): Promise<number> {
  const due = await tx
    .select({
      trialId: trials.id,
      userId: users.id,
      name: users.name,
      email: users.email,
      wants: wantsTopic('trials'),
      toolName: tools.name,
      device: tools.device,
      expiresAt: licenses.expiresAt,
    })
    .from(trials)
    .innerJoin(licenses, eq(licenses.id, trials.licenseId))
    .innerJoin(users, eq(users.id, trials.userId))
    .innerJoin(tools, eq(tools.id, trials.toolId))
    .where(and(isNull(trials.convertedAt), eq(licenses.status, 'trial'), DUE[occasion](now)))
    .limit(BATCH)
    .for('update', { of: trials, skipLocked: true });
  for (const row of due) {
    if (row.wants && row.expiresAt) {
      const links = unsubscribeUrls(ctx, row.userId, 'trials');
      const email = renderTrialEmail(occasion, {
        name: row.name,
        label: toolLabel(row.toolName, row.device),
        endsAt: row.expiresAt,
        buyUrl: buyUrl(ctx),
        unsubscribePage: links.page,
      });
      await enqueueMail(
        ctx,
        tx,
        {
          to: row.email,
          ...email,
          kind: occasion === 'reminder' ? 'trial-reminder' : 'trial-ended',
          ref: `trial:${row.trialId}`,
          listUnsubscribe: links.oneClick,
        },
        now,
      );
    }
    await tx.update(trials).set(MARK[occasion](now)).where(eq(trials.id, row.trialId));
    if (occasion === 'ended') await queueTrialEvent(tx, 'trial.expired', row.trialId, now);
  }
  return due.length;
}

/** One run of the job: the reminders and end notices due now. */
export async function sendTrialEmails(ctx: AppContext): Promise<{ reminders: number; endNotices: number }> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => ({
    reminders: await sendDue(ctx, tx, 'reminder', now),
    endNotices: await sendDue(ctx, tx, 'ended', now),
  }));
}
