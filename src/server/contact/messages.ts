import { and, eq, isNull } from 'drizzle-orm';
import type { ContactRequest } from '../../shared/contact';
import { SITE } from '../../shared/site';
import type { AppContext } from '../context';
import type { Tx } from '../db';
import { contactMessages } from '../db/schema';
import { DomainError } from '../domain-error';
import { enqueueMail } from '../mail/outbox';
import { type ContactMessage, contactAcknowledgementEmail, contactNotificationEmail } from './emails';

/**
 * Keeps a message from the contact form and, in the same transaction, queues the firm's notification and the
 * sender's acknowledgement: both exist exactly when the message does.
 */
export async function storeContactMessage(ctx: AppContext, input: ContactRequest, ip: string): Promise<void> {
  const message: ContactMessage = {
    name: input.name.trim(),
    organisation: input.organisation.trim() || null,
    email: input.email.trim(),
    relatedTo: input.relatedTo,
    description: input.description.trim(),
  };
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactMessages)
      .values({ ...message, ip, createdAt: now })
      .returning({ id: contactMessages.id });
    if (!row) throw new Error('contact message insert returned no row');
    const ref = `contact:${row.id}`;
    await enqueueMail(
      ctx,
      tx,
      {
        to: ctx.config.mailToFirm ?? SITE.email,
        kind: 'contact-notification',
        ref,
        ...contactNotificationEmail(message, now),
      },
      now,
    );
    await enqueueMail(
      ctx,
      tx,
      { to: message.email, kind: 'contact-acknowledgement', ref, ...contactAcknowledgementEmail(message) },
      now,
    );
  });
}

/**
 * Marks a message handled (the operator's command line and dashboard). Marking one already handled changes
 * nothing; `alsoInTransaction` (an audit entry) runs only when something changed, in the same transaction.
 */
export async function markMessageHandled(
  ctx: AppContext,
  id: string,
  alsoInTransaction?: (tx: Tx) => Promise<void>,
): Promise<{ row: typeof contactMessages.$inferSelect; changed: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(contactMessages)
      .set({ handledAt: ctx.clock.now() })
      .where(and(eq(contactMessages.id, id), isNull(contactMessages.handledAt)))
      .returning();
    if (updated) {
      await alsoInTransaction?.(tx);
      return { row: updated, changed: true };
    }
    const [existing] = await tx.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1);
    if (!existing) throw new DomainError('not_found', 'No such message.');
    return { row: existing, changed: false };
  });
}
