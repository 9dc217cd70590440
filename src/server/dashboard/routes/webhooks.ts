import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { emptyRequestSchema, freshCodeSchema } from '../../../shared/dashboard';
import { newWebhookEndpointSchema } from '../../../shared/webhooks';
import { parseInput } from '../../http/errors';
import type { AppContext } from '../../kernel/context';
import {
  addWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
} from '../../webhooks/operations';
import { operatorOf } from '../guard';
import { requireFreshCode } from '../second-factor';

/** A new endpoint receives customers' data from then on: like a refund, it asks for a fresh authenticator code. */
const addRequestSchema = newWebhookEndpointSchema.extend({ code: z.string().optional() });

const idParams = z.object({ id: z.uuid({ error: 'Unknown webhook endpoint' }) });
const deliveryParams = z.object({ id: z.string().regex(/^\d{1,15}$/, { error: 'Unknown delivery' }) });

/** /api/admin/webhooks: the outgoing webhooks, through the same operations as `webhooks …` on the command line. */
export function webhookRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/admin/webhooks', async () => listWebhookEndpoints(ctx));

  app.post('/api/admin/webhooks', async (request) => {
    const { code, ...input } = parseInput(addRequestSchema, request.body);
    const { actor } = operatorOf(request);
    await requireFreshCode(ctx, actor, parseInput(freshCodeSchema, { code }).code);
    return addWebhookEndpoint(ctx, actor, input);
  });

  app.get('/api/admin/webhooks/:id', async (request) =>
    listWebhookDeliveries(ctx, parseInput(idParams, request.params).id),
  );

  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    app.post(`/api/admin/webhooks/:id/${action}`, async (request) => {
      parseInput(emptyRequestSchema, request.body);
      const { id } = parseInput(idParams, request.params);
      return setWebhookEndpointEnabled(ctx, operatorOf(request).actor, id, enabled);
    });
  }

  app.post('/api/admin/webhooks/:id/rotate-secret', async (request) => {
    parseInput(emptyRequestSchema, request.body);
    return rotateWebhookSecret(ctx, operatorOf(request).actor, parseInput(idParams, request.params).id);
  });

  app.post('/api/admin/webhook-deliveries/:id/redeliver', async (request) => {
    parseInput(emptyRequestSchema, request.body);
    return redeliverWebhook(ctx, operatorOf(request).actor, parseInput(deliveryParams, request.params).id);
  });
}
