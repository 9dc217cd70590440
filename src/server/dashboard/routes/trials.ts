import type { FastifyInstance } from 'fastify';
import { extendTrialSchema } from '../../../shared/dashboard';
import { parseInput } from '../../http/errors';
import type { AppContext } from '../../kernel/context';
import { endTrial, extendTrial, trialsOfTool } from '../../trials/operator';
import { idParams, operatorOf } from '../guard';

/** A tool's trials, and the operator's two changes to one trial (each audited by the operation itself). */
export async function trialRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/admin/tools/:id/trials', async (request) => trialsOfTool(ctx, idParams(request)));

  app.post('/api/admin/trials/:id/extend', async (request) => {
    const id = idParams(request);
    const { days } = parseInput(extendTrialSchema, request.body);
    const { expiresAt } = await extendTrial(ctx, id, days, operatorOf(request).actor);
    return { id, expiresAt: expiresAt.toISOString() };
  });

  app.post('/api/admin/trials/:id/end', async (request) => {
    const id = idParams(request);
    const { endedAt } = await endTrial(ctx, id, operatorOf(request).actor);
    return { id, expiresAt: endedAt.toISOString() };
  });
}
