import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { startTrialAnswerSchema } from '../../shared/api-schemas';
import { startTrialSchema } from '../../shared/shop-schemas';
import { type StartTrialResponse, TRIAL_MESSAGES } from '../../shared/trials';
import { requireUser } from '../auth/session';
import { refusals } from '../http/answers';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { startTrial } from './trials';

/** Starting trials is cheap to ask for and sends an email: a few an hour per account is plenty. */
const START_LIMIT = { limit: 10, windowMs: 60 * 60 * 1000 };

export async function trialRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  /** Signed in, with the CSRF token like every unsafe call; 409 for a second trial or an owned tool. */
  app.post(
    '/api/trials/',
    documented(
      {
        tags: ['Shop'],
        summary: 'Start a free trial of a tool',
        description: "The trial's key is emailed like a bought one; 409 for a second trial or an owned tool.",
        security: SESSION,
        body: startTrialSchema,
        response: { 200: startTrialAnswerSchema, ...refusals(400, 401, 403, 404, 409, 429) },
      },
      CALLER_FIRST,
    ),
    async (request, reply): Promise<StartTrialResponse> => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { toolId } = request.body;
      await ctx.limiter.consume({
        key: `start-trial:${user.id}`,
        ...START_LIMIT,
        message: 'You have started several trials in the last hour. Please try again later.',
      });
      const started = await startTrial(ctx, user.id, toolId);
      reply.header('cache-control', 'no-store');
      return {
        status: 'success',
        message: TRIAL_MESSAGES.started(started.days),
        expiresAt: started.expiresAt.toISOString(),
      };
    },
  );
}
