import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts, updatedAt } from './columns';

/** Where the operator wants events sent (decision 046). The secret is sealed (decision 032): shown once, when made. */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: id(),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  events: jsonb('events').$type<string[]>().notNull(),
  /** `whsec_<base64>`, sealed with DATA_SECRET_KEY. */
  secret: text('secret').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  disabledReason: text('disabled_reason'),
  /** The first failed attempt since the last success; 3 days of failures disable the endpoint. */
  failingSince: ts('failing_since'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * One event for one endpoint, written in the transaction that makes the change it reports; the webhook worker
 * claims due rows with FOR UPDATE SKIP LOCKED, as the mail outbox does. `messageId` is the `webhook-id` header,
 * the same on every attempt and on a redelivery, so a receiver can recognise a repeat.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: ref('endpoint_id', () => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    event: text('event').notNull(),
    /** The body sent: `{ type, timestamp, data }`. */
    payload: jsonb('payload').notNull(),
    /** The customer the event is about, so erasing them removes their address from queued and past payloads. */
    customerId: uuid('customer_id'),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    createdAt: createdAt(),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_customer_idx').on(t.customerId),
  ],
);

/** Each try of a delivery: the answer's status (null: no answer) and the start of its body, or why it failed. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    status: integer('status'),
    error: text('error'),
    excerpt: text('excerpt'),
    durationMs: integer('duration_ms').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId)],
);
