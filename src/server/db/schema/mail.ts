import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns';

export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    /** Template name, for the operator's view and for tests: "contact-notification", "signup-code", ... */
    kind: text('kind').notNull(),
    /** What caused it, e.g. "order:<uuid>" or "contact:<uuid>". */
    ref: text('ref'),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    /** One-click unsubscribe URL of optional mail (RFC 8058): sent as List-Unsubscribe with List-Unsubscribe-Post. */
    listUnsubscribe: text('list_unsubscribe'),
    /** The row is deleted once sent instead of kept 90 days: the confirmation to an address just erased. */
    deleteWhenSent: boolean('delete_when_sent').notNull().default(false),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
  },
  (t) => [index('outbox_due_idx').on(t.status, t.nextAttemptAt), index('outbox_ref_idx').on(t.ref)],
);

/**
 * Documents attached to an outbox email, by reference: the worker renders them when it sends, so the email carries
 * the same document the buyer downloads later, and the outbox holds no copy that could differ from it.
 */
export const outboxAttachments = pgTable(
  'outbox_attachments',
  {
    outboxId: bigint('outbox_id', { mode: 'number' })
      .notNull()
      .references(() => outbox.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['invoice', 'credit-note', 'proforma'] }).notNull(),
    documentId: uuid('document_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.outboxId, t.kind, t.documentId] })],
);
