import { eq } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Database, DbOrTx, Tx } from '../db';
import { outbox } from '../db/schema';
import { DomainError } from '../domain-error';

export type MailMessage = {
  /** One bare address ("name@example.com"); it is delivered to exactly this one recipient. */
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Template name: "contact-notification", "signup-code", "license-delivery", ... */
  kind: string;
  /** What caused it, e.g. "order:<uuid>". */
  ref?: string;
};

/**
 * "Mail was queued" hints, so a running outbox worker can deliver soon instead of on its next tick. A hint may
 * arrive before the queuing transaction commits; the worker's periodic run is the guarantee.
 */
export type MailQueuedHint = {
  notify(): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
};

export function createMailQueuedHint(): MailQueuedHint {
  const listeners = new Set<() => void>();
  return {
    notify() {
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Queues an email. Call it with the transaction that makes the change the email reports, so the email exists
 * exactly when the change does; the outbox worker delivers it later, with retries. A new message is due at
 * once. Pass `at` (ctx.clock.now()) to stamp it with the app's clock rather than the database's.
 */
export async function enqueueMail(
  ctx: { mailQueued: MailQueuedHint },
  db: DbOrTx,
  message: MailMessage,
  at?: Date,
): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({ ...message, ref: message.ref ?? null, ...(at ? { createdAt: at, nextAttemptAt: at } : {}) })
    .returning({ id: outbox.id });
  if (!row) throw new Error('outbox insert returned no row');
  ctx.mailQueued.notify();
  return row.id;
}

/**
 * Sends a message again soon (the operator's command line and dashboard): a failed one gets a fresh set of
 * retries, one waiting between retries is due at once. Sent mail is refused. `alsoInTransaction` (an audit entry)
 * commits with the change.
 */
export async function retryMail(
  ctx: { db: Database; clock: Clock; mailQueued: MailQueuedHint },
  id: number,
  alsoInTransaction?: (tx: Tx, before: { status: string; attempts: number }) => Promise<void>,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(outbox).where(eq(outbox.id, id)).for('update').limit(1);
    if (!row) throw new DomainError('not_found', 'No such email.');
    if (row.status === 'sent') throw new DomainError('refused', 'This email was sent already.');
    const now = ctx.clock.now();
    await tx
      .update(outbox)
      .set(
        row.status === 'failed'
          ? { status: 'pending', attempts: 0, nextAttemptAt: now }
          : { nextAttemptAt: now },
      )
      .where(eq(outbox.id, id));
    await alsoInTransaction?.(tx, { status: row.status, attempts: row.attempts });
  });
  ctx.mailQueued.notify();
}
