import { z } from 'zod';
import {
  newWebhookEndpointSchema,
  WEBHOOK_EVENTS,
  type WebhookAttemptSummary,
  type WebhookDeliverySummary,
} from '../../shared/webhooks';
import {
  addWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
} from '../webhooks/operator';
import { formatTime, table } from './format';
import { argument, defineCommand, parseCommandInput, requireOption } from './framework';

const when = (iso: string | null) => (iso ? formatTime(new Date(iso)) : '—');

const SECRET_NOTE = 'Keep the secret now: it is not shown again ("webhooks rotate-secret" makes a new one).';

/** `--events a,b` as a list, then the endpoint as the dashboard's form gives it, by the same schema. */
const addInput = z
  .object({
    url: z.string(),
    events: z.string().transform((typed) =>
      typed
        .split(',')
        .map((event) => event.trim())
        .filter(Boolean),
    ),
    description: z.string().optional(),
  })
  .pipe(newWebhookEndpointSchema);

const add = defineCommand({
  path: ['webhooks', 'add'],
  summary: 'Add an endpoint that is sent the events it asks for; prints its id and secret (shown once)',
  args: [{ name: 'url', description: 'where to POST, e.g. https://crm.example.com/hooks/shop' }],
  options: {
    events: {
      type: 'string',
      value: '<event,event>',
      description: `Events to send: ${WEBHOOK_EVENTS.join(', ')}`,
    },
    description: { type: 'string', value: '<text>', description: 'What the endpoint is for' },
  },
  example: 'webhooks add https://crm.example.com/hooks/shop --events order.paid,order.refunded',
  details:
    'Each request is signed as Standard Webhooks says (webhook-id, webhook-timestamp, webhook-signature), and\n' +
    'retried for up to 3 days until the endpoint answers 2xx. See docs/webhooks.md.',
  async run(env, input) {
    const endpoint = parseCommandInput(addInput, {
      options: {
        events: requireOption(input.options.events, 'events', 'webhooks add'),
        description: input.options.description,
      },
      args: { url: argument(input, 0) },
    });
    const ctx = await env.open();
    const created = await addWebhookEndpoint(ctx, env.actor, endpoint);
    return {
      data: created,
      text: `Webhook endpoint ${created.id} added for ${created.events.join(', ')}.\nSecret: ${created.secret}\n${SECRET_NOTE}`,
    };
  },
});

const list = defineCommand({
  path: ['webhooks', 'list'],
  summary: 'List the webhook endpoints, newest first',
  example: 'webhooks list',
  async run(env) {
    const rows = await listWebhookEndpoints(await env.open());
    return {
      data: rows,
      text: table(
        ['ID', 'URL', 'EVENTS', 'STATE', 'DESCRIPTION'],
        rows.map((row) => [
          row.id,
          row.url,
          row.events.join(','),
          row.enabled
            ? row.failingSince
              ? `failing since ${when(row.failingSince)}`
              : 'enabled'
            : `disabled: ${row.disabledReason ?? ''}`,
          row.description,
        ]),
        'No webhook endpoints.',
      ),
    };
  },
});

const endpointArg = [{ name: 'id', description: 'the endpoint id, from "webhooks list"' }];

/** `webhooks disable` and `webhooks enable`: one switch, told which way. */
const switchCommand = (enabled: boolean, summary: string) => {
  const word = enabled ? 'enable' : 'disable';
  return defineCommand({
    path: ['webhooks', word],
    summary,
    args: endpointArg,
    example: `webhooks ${word} 3f2a9c1e-5b7d-4e2a-9c1e-5b7d4e2a9c1e`,
    async run(env, input) {
      const row = await setWebhookEndpointEnabled(await env.open(), env.actor, argument(input, 0), enabled);
      return { data: row, text: `Webhook endpoint ${row.id} is ${word}d.` };
    },
  });
};

const disable = switchCommand(false, 'Stop sending to an endpoint (its deliveries wait until it is enabled)');
const enable = switchCommand(true, 'Send to an endpoint again, including the deliveries that waited');

const rotate = defineCommand({
  path: ['webhooks', 'rotate-secret'],
  summary: 'Give an endpoint a new secret (shown once); the old one stops signing at once',
  args: endpointArg,
  example: 'webhooks rotate-secret 3f2a9c1e-5b7d-4e2a-9c1e-5b7d4e2a9c1e',
  async run(env, input) {
    const row = await rotateWebhookSecret(await env.open(), env.actor, argument(input, 0));
    return { data: row, text: `New secret of webhook endpoint ${row.id}: ${row.secret}\n${SECRET_NOTE}` };
  },
});

const deliveries = defineCommand({
  path: ['webhooks', 'deliveries'],
  summary: 'An endpoint’s newest deliveries, one line per attempt: event, status code, time, answer',
  args: endpointArg,
  example: 'webhooks deliveries 3f2a9c1e-5b7d-4e2a-9c1e-5b7d4e2a9c1e --json',
  details:
    'With --json: one object per attempt (delivery, event, state, attempt, status, at, excerpt, error);\n' +
    'a delivery not tried yet has one with attempt 0.',
  async run(env, input) {
    const { deliveries: rows } = await listWebhookDeliveries(await env.open(), argument(input, 0));
    type AttemptLine = Omit<WebhookDeliverySummary, 'id' | 'attempts'> &
      Omit<WebhookAttemptSummary, 'at' | 'durationMs'> & { delivery: number; at: string | null };
    const attempts = rows.flatMap((delivery): AttemptLine[] => {
      const { id, attempts: tried, ...base } = delivery;
      if (tried.length === 0)
        return [{ delivery: id, ...base, attempt: 0, status: null, at: null, excerpt: null, error: null }];
      return tried.map((attempt) => ({ delivery: id, ...base, ...attempt }));
    });
    return {
      data: attempts,
      text: table(
        ['DELIVERY', 'EVENT', 'STATE', 'ATTEMPT', 'STATUS', 'WHEN', 'ANSWER'],
        attempts.map((row) => [
          row.delivery,
          row.event,
          row.state,
          row.attempt || '—',
          row.status ?? '—',
          when(row.at),
          row.error ?? row.excerpt ?? '',
        ]),
        'No deliveries yet.',
      ),
    };
  },
});

const redeliver = defineCommand({
  path: ['webhooks', 'redeliver'],
  summary: 'Send a delivery again (same webhook-id), with a fresh set of retries',
  args: [{ name: 'delivery-id', description: 'the DELIVERY number from "webhooks deliveries"' }],
  example: 'webhooks redeliver 42',
  async run(env, input) {
    const copy = await redeliverWebhook(await env.open(), env.actor, argument(input, 0));
    return { data: copy, text: `Delivery ${argument(input, 0)} queued again as delivery ${copy.id}.` };
  },
});

export const webhookCommands = [add, list, disable, enable, rotate, deliveries, redeliver];
