import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { extendTrialSchema } from '../../../shared/dashboard';
import type { AppContext } from '../../kernel/context';
import { endTrial, extendTrial, trialsOfTool } from '../../trials/operator';
import { idPath, operatorOf } from './guard';

/** A tool's trials, and the operator's two changes to one trial (each audited by the operation itself). */
export async function trialRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/api/admin/tools/:id/trials', { schema: { params: idPath } }, async (request) =>
    trialsOfTool(ctx, request.params.id),
  );

  app.post(
    '/api/admin/trials/:id/extend',
    { schema: { params: idPath, body: extendTrialSchema } },
    async (request) => {
      const id = request.params.id;
      const { expiresAt } = await extendTrial(ctx, id, request.body, operatorOf(request).actor);
      return { id, expiresAt: expiresAt.toISOString() };
    },
  );

  app.post('/api/admin/trials/:id/end', { schema: { params: idPath } }, async (request) => {
    const id = request.params.id;
    const { endedAt } = await endTrial(ctx, id, operatorOf(request).actor);
    return { id, expiresAt: endedAt.toISOString() };
  });
}
