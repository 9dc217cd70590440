import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emptyRequestSchema, freshCodeSchema } from '../../../shared/dashboard';
import {
  redeliveredSchema,
  webhookDeliveriesSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from '../../../shared/dashboard-answers';
import { newWebhookEndpointSchema } from '../../../shared/webhooks';
import { refusals } from '../../http/answers';
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
import { GUARD_REFUSALS, operatorOf } from './guard';

/** A new endpoint receives customers' data from then on: like a refund, it asks for a fresh authenticator code. */
const addRequestSchema = newWebhookEndpointSchema.extend({ code: z.string().optional() });

const idParams = z.object({ id: z.uuid({ error: 'Unknown webhook endpoint' }) });
const deliveryParams = z.object({ id: z.string().regex(/^\d{1,15}$/, { error: 'Unknown delivery' }) });

/** /api/admin/webhooks: the outgoing webhooks, through the same operations as `webhooks …` on the command line. */
export function dashboardWebhookRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const list = {
    schema: { response: { 200: z.array(webhookEndpointSchema), ...refusals(...GUARD_REFUSALS) } },
  };
  app.get('/api/admin/webhooks', list, async () => listWebhookEndpoints(ctx));

  const add = {
    schema: {
      body: addRequestSchema,
      response: { 200: webhookEndpointWithSecretSchema, ...refusals(...GUARD_REFUSALS, 400, 409) },
    },
  };
  app.post('/api/admin/webhooks', add, async (request) => {
    const { code, ...input } = request.body;
    const { actor } = operatorOf(ctx, request);
    await requireFreshCode(ctx, actor, parseInput(freshCodeSchema, { code }).code);
    return addWebhookEndpoint(ctx, actor, input);
  });

  const deliveries = {
    schema: {
      params: idParams,
      response: { 200: webhookDeliveriesSchema, ...refusals(...GUARD_REFUSALS, 400, 404) },
    },
  };
  app.get('/api/admin/webhooks/:id', deliveries, async (request) =>
    listWebhookDeliveries(ctx, request.params.id),
  );

  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    app.post(
      `/api/admin/webhooks/:id/${action}`,
      {
        schema: {
          params: idParams,
          body: emptyRequestSchema,
          response: { 200: webhookEndpointSchema, ...refusals(...GUARD_REFUSALS, 400, 404) },
        },
      },
      async (request) => {
        const { id } = request.params;
        return setWebhookEndpointEnabled(ctx, operatorOf(ctx, request).actor, id, enabled);
      },
    );
  }

  app.post(
    '/api/admin/webhooks/:id/rotate-secret',
    {
      schema: {
        params: idParams,
        body: emptyRequestSchema,
        response: { 200: webhookEndpointWithSecretSchema, ...refusals(...GUARD_REFUSALS, 400, 404) },
      },
    },
    async (request) => {
      return rotateWebhookSecret(ctx, operatorOf(ctx, request).actor, request.params.id);
    },
  );

  app.post(
    '/api/admin/webhook-deliveries/:id/redeliver',
    {
      schema: {
        params: deliveryParams,
        body: emptyRequestSchema,
        response: { 200: redeliveredSchema, ...refusals(...GUARD_REFUSALS, 400, 404, 409) },
      },
    },
    async (request) => {
      return redeliverWebhook(ctx, operatorOf(ctx, request).actor, request.params.id);
    },
  );
}
