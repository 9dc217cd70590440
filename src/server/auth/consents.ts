/**
 * The record of consents (DPDP Act s. 6): what the buyer agreed to, in which version of the Privacy Policy, when,
 * and when it was withdrawn. The export shows it; erasure withdraws what is still open.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import { EMAIL_TOPICS, type EmailTopic } from '../../shared/account';
import { emailConsentKind, POLICY_CONSENT, PRIVACY_POLICY_VERSION } from '../../shared/privacy';
import type { DbOrTx } from '../db';
import { consents, users } from '../db/schema/accounts';

/** Signing up accepts the Privacy Policy; the optional email topics start on (the buyer turns them off later). */
export async function recordSignupConsents(db: DbOrTx, userId: string, at: Date): Promise<void> {
  const kinds = [POLICY_CONSENT, ...EMAIL_TOPICS.map(emailConsentKind)];
  await db
    .insert(consents)
    .values(kinds.map((kind) => ({ userId, kind, version: PRIVACY_POLICY_VERSION, givenAt: at })));
}

/** Closes the open consent of this kind; one never recorded (an account older than the record) is recorded closed. */
async function withdraw(db: DbOrTx, userId: string, kind: string, at: Date): Promise<void> {
  const closed = await db
    .update(consents)
    .set({ withdrawnAt: at })
    .where(and(eq(consents.userId, userId), eq(consents.kind, kind), isNull(consents.withdrawnAt)))
    .returning({ id: consents.id });
  if (closed.length > 0) return;
  const [user] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId));
  if (!user) return;
  // The topic was on from signup, before consents were recorded: which policy version it was is not known.
  await db
    .insert(consents)
    .values({ userId, kind, version: 'not recorded', givenAt: user.createdAt, withdrawnAt: at });
}

/** An email topic turned on or off: a new consent, or the open one withdrawn. Unchanged topics record nothing. */
export async function recordEmailConsent(
  db: DbOrTx,
  userId: string,
  topic: EmailTopic,
  given: boolean,
  at: Date,
): Promise<void> {
  const kind = emailConsentKind(topic);
  if (!given) return withdraw(db, userId, kind, at);
  await db.insert(consents).values({ userId, kind, version: PRIVACY_POLICY_VERSION, givenAt: at });
}

/** Every open consent withdrawn, as the account is erased. */
export async function withdrawAllConsents(db: DbOrTx, userId: string, at: Date): Promise<void> {
  await db
    .update(consents)
    .set({ withdrawnAt: at })
    .where(and(eq(consents.userId, userId), isNull(consents.withdrawnAt)));
}

export function consentHistory(db: DbOrTx, userId: string) {
  return db
    .select({
      kind: consents.kind,
      version: consents.version,
      givenAt: consents.givenAt,
      withdrawnAt: consents.withdrawnAt,
    })
    .from(consents)
    .where(eq(consents.userId, userId))
    .orderBy(asc(consents.givenAt), asc(consents.kind));
}
