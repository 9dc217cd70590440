/**
 * Email preferences: the optional mail a buyer can turn off (release announcements, trial and checkout reminders), and the
 * one-click unsubscribe links every such email carries (RFC 8058). Transactional mail (codes, deliveries,
 * invoices, notices about the account) is always sent and never asks these.
 *
 * An unsubscribe link names the account and the topic and carries a keyed hash of both, so it works signed out,
 * cannot be forged for another account, and survives a rotation of DATA_SECRET_KEY (previous keys verify).
 */
import { timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { EMAIL_TOPICS, type EmailPreferences, type EmailTopic } from '../../shared/account';
import { recordEmailConsent } from '../auth/consents';
import type { DbOrTx } from '../db';
import { users } from '../db/schema/accounts';
import type { AppContext } from '../kernel/context';
import type { DataSecrets } from '../kernel/data-secrets';

const COLUMN = {
  releases: users.releaseEmails,
  trials: users.trialEmails,
  checkoutReminders: users.checkoutReminderEmails,
  renewalReminders: users.renewalReminderEmails,
} as const;
const FIELD = {
  releases: 'releaseEmails',
  trials: 'trialEmails',
  checkoutReminders: 'checkoutReminderEmails',
  renewalReminders: 'renewalReminderEmails',
} as const;

const PURPOSE = 'unsubscribe';

/** `<userId>.<topic>.<keyed hash>`: what the unsubscribe links carry. */
export function unsubscribeToken(secrets: DataSecrets, userId: string, topic: EmailTopic): string {
  return `${userId}.${topic}.${secrets.lookupHash(PURPOSE, `${userId}.${topic}`)}`;
}

/** The account and topic a token names, or null for anything forged, malformed or under an unknown key. */
export function readUnsubscribeToken(
  secrets: DataSecrets,
  token: string,
): { userId: string; topic: EmailTopic } | null {
  const [userId, topic, hash, ...rest] = token.split('.');
  if (!userId || !hash || rest.length > 0 || !EMAIL_TOPICS.includes(topic as EmailTopic)) return null;
  const given = Buffer.from(hash);
  const valid = secrets.lookupHashes(PURPOSE, `${userId}.${topic}`).some((expected) => {
    const wanted = Buffer.from(expected);
    return wanted.length === given.length && timingSafeEqual(wanted, given);
  });
  return valid ? { userId, topic: topic as EmailTopic } : null;
}

/**
 * The one-click URL for the List-Unsubscribe header (a POST to it unsubscribes, RFC 8058) and, with GET, the link
 * in the email's body: the web page at /unsubscribe shows what it turns off and asks for one click.
 */
export function unsubscribeUrls(
  ctx: Pick<AppContext, 'config' | 'dataSecrets'>,
  userId: string,
  topic: EmailTopic,
): { oneClick: string; page: string } {
  const token = encodeURIComponent(unsubscribeToken(ctx.dataSecrets, userId, topic));
  return {
    oneClick: `${ctx.config.publicUrl}/api/account/unsubscribe?token=${token}`,
    page: `${ctx.config.publicUrl}/unsubscribe?token=${token}`,
  };
}

export async function emailPreferences(db: DbOrTx, userId: string): Promise<EmailPreferences | null> {
  const [row] = await db
    .select(COLUMN)
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.erasedAt)));
  return row ?? null;
}

/**
 * Sets some preferences, recording each one that changes as a consent given or withdrawn in the same transaction;
 * returns them all, or null when the account does not exist or was erased.
 */
export async function setEmailPreferences(
  db: DbOrTx,
  userId: string,
  changes: Partial<EmailPreferences>,
  at: Date,
): Promise<EmailPreferences | null> {
  const values: Partial<Record<(typeof FIELD)[EmailTopic], boolean>> = {};
  for (const topic of EMAIL_TOPICS) {
    const value = changes[topic];
    if (value !== undefined) values[FIELD[topic]] = value;
  }
  if (Object.keys(values).length === 0) return emailPreferences(db, userId);
  return db.transaction(async (tx) => {
    const before = await tx
      .select(COLUMN)
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.erasedAt)))
      .for('update');
    if (!before[0]) return null;
    const [row] = await tx.update(users).set(values).where(eq(users.id, userId)).returning(COLUMN);
    if (!row) return null;
    for (const topic of EMAIL_TOPICS) {
      if (row[topic] !== before[0][topic]) await recordEmailConsent(tx, userId, topic, row[topic], at);
    }
    return row;
  });
}

/** For senders of optional mail: the column to filter recipients by (`where(eq(wantsTopic('releases'), true))`). */
export function wantsTopic(topic: EmailTopic) {
  return COLUMN[topic];
}
