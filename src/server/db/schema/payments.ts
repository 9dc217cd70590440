import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/** Razorpay webhook event ids already handled: a redelivery has no second effect. */
export const webhookEvents = pgTable('webhook_events', {
  eventId: text('event_id').primaryKey(),
  event: text('event').notNull(),
  receivedAt: createdAt(),
});
