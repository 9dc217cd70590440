import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emptyRequestSchema, freshCodeSchema } from '../../../shared/dashboard';
import { newWebhookEndpointSchema } from '../../../shared/webhooks';
import { parseInput } from '../../http/errors';
import type { AppContext } from '../../kernel/context';
import { requireFreshCode } from '../../operator/second-factor';
import {
  addWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
} from '../../webhooks/operator';
import { operatorOf } from './guard';

/** A new endpoint receives customers' data from then on: like a refund, it asks for a fresh authenticator code. */
const addRequestSchema = newWebhookEndpointSchema.extend({ code: z.string().optional() });

const idParams = z.object({ id: z.uuid({ error: 'Unknown webhook endpoint' }) });
const deliveryParams = z.object({ id: z.string().regex(/^\d{1,15}$/, { error: 'Unknown delivery' }) });

/** /api/admin/webhooks: the outgoing webhooks, through the same operations as `webhooks …` on the command line. */
export function webhookRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/api/admin/webhooks', async () => listWebhookEndpoints(ctx));

  app.post('/api/admin/webhooks', { schema: { body: addRequestSchema } }, async (request) => {
    const { code, ...input } = request.body;
    const { actor } = operatorOf(request);
    await requireFreshCode(ctx, actor, parseInput(freshCodeSchema, { code }).code);
    return addWebhookEndpoint(ctx, actor, input);
  });

  app.get('/api/admin/webhooks/:id', { schema: { params: idParams } }, async (request) =>
    listWebhookDeliveries(ctx, request.params.id),
  );

  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    app.post(
      `/api/admin/webhooks/:id/${action}`,
      { schema: { params: idParams, body: emptyRequestSchema } },
      async (request) => {
        const { id } = request.params;
        return setWebhookEndpointEnabled(ctx, operatorOf(request).actor, id, enabled);
      },
    );
  }

  app.post(
    '/api/admin/webhooks/:id/rotate-secret',
    { schema: { params: idParams, body: emptyRequestSchema } },
    async (request) => {
      return rotateWebhookSecret(ctx, operatorOf(request).actor, request.params.id);
    },
  );

  app.post(
    '/api/admin/webhook-deliveries/:id/redeliver',
    { schema: { params: deliveryParams, body: emptyRequestSchema } },
    async (request) => {
      return redeliverWebhook(ctx, operatorOf(request).actor, request.params.id);
    },
  );
}
