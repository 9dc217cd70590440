import { z } from 'zod';

/**
 * Outgoing webhooks (docs/decisions/046-outgoing-webhooks.md, docs/webhooks.md): the events an endpoint may ask
 * for, and what the operator types to add one. The dashboard and the command line share these words.
 */
export const WEBHOOK_EVENTS = [
  'order.paid',
  'order.refunded',
  'license.created',
  'license.revoked',
  'license.suspended',
  'license.reinstated',
  'license.upgraded',
  'license.renewed',
  'trial.started',
  'trial.converted',
  'trial.expired',
  'release.published',
  'customer.created',
  'customer.erased',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;
const URL_MAX_LENGTH = 2000;

export const webhookUrlSchema = z
  .string({ error: 'url: an http(s) URL' })
  .trim()
  .min(1, { error: 'url: an http(s) URL' })
  .max(URL_MAX_LENGTH, { error: `url: at most ${URL_MAX_LENGTH} characters` })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
      } catch {
        return false;
      }
    },
    { error: 'url: an http:// or https:// URL without a user name or password' },
  );

export const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `events: each one of ${WEBHOOK_EVENTS.join(', ')}` }), {
    error: 'events: a list of events',
  })
  .min(1, { error: 'events: choose at least one event' })
  .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event)));

/** POST /api/admin/webhooks body, and `webhooks add` after parsing. */
export const newWebhookEndpointSchema = z.strictObject({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
  description: z
    .string()
    .trim()
    .max(WEBHOOK_DESCRIPTION_MAX_LENGTH, {
      error: `description: at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`,
    })
    .default(''),
});
export type NewWebhookEndpoint = z.input<typeof newWebhookEndpointSchema>;
/** A new endpoint as the schema parsed it (events in their canonical order, a description): what adding takes. */
export type ParsedWebhookEndpoint = z.output<typeof newWebhookEndpointSchema>;

export type WebhookEndpointSummary = {
  id: string;
  url: string;
  description: string;
  events: WebhookEvent[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
};

export type WebhookAttemptSummary = {
  attempt: number;
  status: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
  at: string;
};

export type WebhookDeliverySummary = {
  id: number;
  messageId: string;
  event: WebhookEvent;
  state: 'pending' | 'delivered' | 'failed';
  attempts: WebhookAttemptSummary[];
  nextAttemptAt: string | null;
  createdAt: string;
};
