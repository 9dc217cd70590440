import { and, asc, count, desc, eq, gte, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { ContactRequest } from '../../shared/contact-schema';
import { SITE } from '../../shared/site';
import type { DbOrTx, Tx } from '../db';
import { contactMessages } from '../db/schema/contact';
import { findByTypedId } from '../db/typed-id';
import type { AppContext } from '../kernel/context';
import { enqueueMail } from '../mail/outbox';
import { type Actor, recordAudit } from '../operator/audit';
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

export type StoredMessage = typeof contactMessages.$inferSelect;

/** A message by the id the operator typed (or its start). */
export function findMessage(db: DbOrTx, typed: string): Promise<StoredMessage> {
  return findByTypedId({
    idColumn: contactMessages.id,
    typed,
    noun: 'message',
    listCommand: 'messages list',
    select: (where) => db.select().from(contactMessages).where(where).limit(2),
  });
}

export type MessageFilter = { unhandled?: boolean; since?: Date };

function filterConditions(filter: MessageFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.unhandled) conditions.push(isNull(contactMessages.handledAt));
  if (filter.since) conditions.push(gte(contactMessages.createdAt, filter.since));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

const ORDERS = {
  /** Unhandled messages first, oldest first (a queue to work through); then handled ones, newest first. */
  queue: [
    sql`${contactMessages.handledAt} is not null`,
    sql`case when ${contactMessages.handledAt} is null then ${contactMessages.createdAt} end asc`,
    desc(contactMessages.handledAt),
    asc(contactMessages.id),
  ],
  newest: [desc(contactMessages.createdAt), desc(contactMessages.id)],
  /** For an export. */
  oldest: [asc(contactMessages.createdAt), asc(contactMessages.id)],
};

/** Contact messages, as the dashboard and the command line list it: a filter, an order, and a page of it. */
export function listMessages(
  ctx: AppContext,
  query: MessageFilter & { order: keyof typeof ORDERS; limit?: number; offset?: number },
): Promise<StoredMessage[]> {
  const rows = ctx.db
    .select()
    .from(contactMessages)
    .where(filterConditions(query))
    .orderBy(...ORDERS[query.order])
    .$dynamic();
  return query.limit === undefined ? rows : rows.limit(query.limit).offset(query.offset ?? 0);
}

export async function countMessages(ctx: AppContext, filter: MessageFilter): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(contactMessages).where(filterConditions(filter));
  return row?.n ?? 0;
}

/**
 * Marks a message handled once; a message already handled keeps its first date. The audit entry is written only
 * when something changed, in the same transaction.
 */
export async function markMessageHandled(
  ctx: AppContext,
  typed: string,
  actor: Actor,
): Promise<{ message: StoredMessage; alreadyHandled: boolean }> {
  const row = await findMessage(ctx.db, typed);
  if (row.handledAt) return { message: row, alreadyHandled: true };
  return ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(contactMessages)
      .set({ handledAt: ctx.clock.now() })
      .where(and(eq(contactMessages.id, row.id), isNull(contactMessages.handledAt)))
      .returning();
    // Someone else marked it in between: theirs is the first date, and theirs the change.
    if (!updated) return { message: row, alreadyHandled: true };
    await recordAudit(tx, actor, {
      action: 'message.handled',
      target: `message:${updated.id}`,
      before: { handled: false },
      after: { handled: true },
    });
    return { message: updated, alreadyHandled: false };
  });
}

/** Erasure: the firm's copies of the messages the addresses sent go; returns their ids (their mail goes too). */
export async function eraseMessagesFrom(tx: Tx, emails: readonly string[]): Promise<string[]> {
  const gone = await tx
    .delete(contactMessages)
    .where(inArray(sql`lower(${contactMessages.email})`, [...emails]))
    .returning({ id: contactMessages.id });
  return gone.map((message) => message.id);
}
