import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { CONTACT_TOPICS } from '../../../shared/constants';
import { createdAt, id, ts } from './columns';

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: id(),
    name: text('name').notNull(),
    organisation: text('organisation'),
    email: text('email').notNull(),
    relatedTo: text('related_to', { enum: CONTACT_TOPICS }).notNull(),
    description: text('description').notNull(),
    ip: text('ip'),
    createdAt: createdAt(),
    handledAt: ts('handled_at'),
  },
  (t) => [index('contact_messages_created_at_idx').on(t.createdAt)],
);
