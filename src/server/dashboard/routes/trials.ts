import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { extendTrialSchema } from '../../../shared/dashboard';
import { toolTrialsSchema, trialEndSchema } from '../../../shared/dashboard-answers';
import { refusals } from '../../http/answers';
import type { AppContext } from '../../kernel/context';
import { endTrial, extendTrial, trialsOfTool } from '../../trials/operator';
import { GUARD_REFUSALS, idPath, operatorOf } from './guard';

/** A tool's trials, and the operator's two changes to one trial (each audited by the operation itself). */
export async function dashboardTrialRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const trials = {
    schema: { params: idPath, response: { 200: toolTrialsSchema, ...refusals(...GUARD_REFUSALS, 400, 404) } },
  };
  const ended = { 200: trialEndSchema, ...refusals(...GUARD_REFUSALS, 400, 404, 409) };
  app.get('/api/admin/tools/:id/trials', trials, async (request) => trialsOfTool(ctx, request.params.id));

  app.post(
    '/api/admin/trials/:id/extend',
    { schema: { params: idPath, body: extendTrialSchema, response: ended } },
    async (request) => {
      const id = request.params.id;
      const { expiresAt } = await extendTrial(ctx, id, request.body, operatorOf(ctx, request).actor);
      return { id, expiresAt: expiresAt.toISOString() };
    },
  );

  app.post('/api/admin/trials/:id/end', { schema: { params: idPath, response: ended } }, async (request) => {
    const id = request.params.id;
    const { endedAt } = await endTrial(ctx, id, operatorOf(ctx, request).actor);
    return { id, expiresAt: endedAt.toISOString() };
  });
}
