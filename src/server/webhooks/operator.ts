import { and, desc, eq, inArray } from 'drizzle-orm';
import type {
  ParsedWebhookEndpoint,
  WebhookDeliverySummary,
  WebhookEndpointSummary,
  WebhookEvent,
} from '../../shared/webhooks';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../db/schema/webhooks';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { type Actor, recordAudit } from '../operator/audit';
import { checkedAddress } from './addresses';
import { sealEndpointSecret } from './secrets';
import { newWebhookSecret } from './signing';

/**
 * The operator's webhook endpoints (decision 046), one operation per action for the dashboard and the command
 * line alike; each writes its audit row in the transaction that makes its change (decision 033). The audit log
 * never holds a secret.
 */

type EndpointRow = typeof webhookEndpoints.$inferSelect;

const summary = (row: EndpointRow): WebhookEndpointSummary => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events as WebhookEvent[],
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  failingSince: row.failingSince?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function endpointOrNotFound(ctx: AppContext, id: string): Promise<EndpointRow> {
  if (!UUID.test(id))
    throw new DomainError('invalid', `"${id}" is not an endpoint id (see "webhooks list").`);
  const [row] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!row) throw new DomainError('not_found', `No webhook endpoint ${id}.`);
  return row;
}

export async function listWebhookEndpoints(ctx: AppContext): Promise<WebhookEndpointSummary[]> {
  const rows = await ctx.db.select().from(webhookEndpoints).orderBy(desc(webhookEndpoints.createdAt));
  return rows.map(summary);
}

/**
 * Adds an endpoint, as its adapter parsed it (the dashboard's route and `webhooks add` parse with
 * `newWebhookEndpointSchema`); its URL must resolve to a public address (or loopback where WEBHOOKS_ALLOW_LOOPBACK
 * allows). Returns the secret in clear this once: it is stored sealed and never shown again.
 */
export async function addWebhookEndpoint(
  ctx: AppContext,
  actor: Actor,
  endpoint: ParsedWebhookEndpoint,
): Promise<WebhookEndpointSummary & { secret: string }> {
  if (ctx.config.isProduction && new URL(endpoint.url).protocol !== 'https:')
    throw new DomainError('invalid', 'url: must be https:// (events carry customers’ data).');
  await checkedAddress(endpoint.url, ctx.config.webhooks);
  const secret = newWebhookSecret();
  const now = ctx.clock.now();
  const created = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ ...endpoint, secret: sealEndpointSecret(ctx, secret), createdAt: now, updatedAt: now })
      .returning();
    if (!row) throw new Error('webhook endpoint insert returned no row');
    await recordAudit(tx, actor, {
      action: 'webhook.add',
      target: `webhook:${row.id}`,
      after: { url: row.url, events: row.events, description: row.description },
    });
    return row;
  });
  return { ...summary(created), secret };
}

/** Stops or resumes sending to an endpoint; enabling it clears why it was disabled and its failure streak. */
export async function setWebhookEndpointEnabled(
  ctx: AppContext,
  actor: Actor,
  id: string,
  enabled: boolean,
): Promise<WebhookEndpointSummary> {
  const before = await endpointOrNotFound(ctx, id);
  if (before.enabled === enabled)
    throw new DomainError(
      'refused',
      `Webhook endpoint ${id} is already ${enabled ? 'enabled' : 'disabled'}.`,
    );
  if (enabled) await checkedAddress(before.url, ctx.config.webhooks);
  const after = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        enabled,
        disabledReason: enabled ? null : 'Disabled by an operator',
        failingSince: null,
        updatedAt: ctx.clock.now(),
      })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.enabled, before.enabled)))
      .returning();
    if (!row) throw new DomainError('refused', `Webhook endpoint ${id} changed meanwhile; try again.`);
    await recordAudit(tx, actor, {
      action: enabled ? 'webhook.enable' : 'webhook.disable',
      target: `webhook:${id}`,
      before: { enabled: before.enabled, disabledReason: before.disabledReason },
      after: { enabled: row.enabled },
    });
    return row;
  });
  return summary(after);
}

/** A new secret for an endpoint, shown this once; the old one stops signing at once. */
export async function rotateWebhookSecret(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<WebhookEndpointSummary & { secret: string }> {
  await endpointOrNotFound(ctx, id);
  const secret = newWebhookSecret();
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({ secret: sealEndpointSecret(ctx, secret), updatedAt: ctx.clock.now() })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    if (!updated) throw new DomainError('not_found', `No webhook endpoint ${id}.`);
    await recordAudit(tx, actor, { action: 'webhook.rotate_secret', target: `webhook:${id}` });
    return updated;
  });
  return { ...summary(row), secret };
}

const DELIVERIES_SHOWN = 50;

/** An endpoint's newest deliveries, each with its attempts (status code, time, the start of the answer). */
export async function listWebhookDeliveries(
  ctx: AppContext,
  id: string,
): Promise<{ endpoint: WebhookEndpointSummary; deliveries: WebhookDeliverySummary[] }> {
  const endpoint = await endpointOrNotFound(ctx, id);
  const rows = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.id))
    .limit(DELIVERIES_SHOWN);
  const attempts =
    rows.length === 0
      ? []
      : await ctx.db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.deliveryId,
              rows.map((row) => row.id),
            ),
          )
          .orderBy(webhookAttempts.id);
  return {
    endpoint: summary(endpoint),
    deliveries: rows.map((row) => ({
      id: row.id,
      messageId: row.messageId,
      event: row.event as WebhookEvent,
      state: row.status,
      attempts: attempts
        .filter((attempt) => attempt.deliveryId === row.id)
        .map((attempt) => ({
          attempt: attempt.attempt,
          status: attempt.status,
          error: attempt.error,
          excerpt: attempt.excerpt,
          durationMs: attempt.durationMs,
          at: attempt.at.toISOString(),
        })),
      nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

/**
 * Sends a delivery again as a new delivery of the same message (same `webhook-id`, so a receiver that has it
 * already can tell), with a fresh set of retries. Refused while the delivery is still being tried.
 */
export async function redeliverWebhook(
  ctx: AppContext,
  actor: Actor,
  deliveryId: string,
): Promise<{ id: number; endpointId: string; event: string }> {
  if (!/^\d{1,15}$/.test(deliveryId))
    throw new DomainError('invalid', `"${deliveryId}" is not a delivery id (see "webhooks deliveries").`);
  const id = Number(deliveryId);
  const [original] = await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  if (!original) throw new DomainError('not_found', `No webhook delivery ${id}.`);
  if (original.status === 'pending')
    throw new DomainError(
      'refused',
      `Delivery ${id} is still being tried (attempt ${original.attempts}); wait for it.`,
    );
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [copy] = await tx
      .insert(webhookDeliveries)
      .values({
        endpointId: original.endpointId,
        messageId: original.messageId,
        event: original.event,
        payload: original.payload,
        customerId: original.customerId,
        createdAt: now,
        nextAttemptAt: now,
      })
      .returning({
        id: webhookDeliveries.id,
        endpointId: webhookDeliveries.endpointId,
        event: webhookDeliveries.event,
      });
    if (!copy) throw new Error('webhook delivery insert returned no row');
    await recordAudit(tx, actor, {
      action: 'webhook.redeliver',
      target: `webhook:${original.endpointId}`,
      before: { delivery: id, status: original.status },
      after: { delivery: copy.id },
    });
    return copy;
  });
}
