import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { checkoutOpenedAnswerSchema, checkoutOpenedSchema } from '../../shared/checkout-recovery';
import { requireUser } from '../auth/session';
import { findActiveTool, ownedToolIds } from '../catalogue/catalogue';
import { refusals } from '../http/answers';
import { notFound } from '../http/errors';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { recordCheckoutStart } from './recovery';

/** The billing dialog opens a few times a visit at most; this only bounds a script. */
const OPENED_LIMIT = { limit: 30, windowMs: 60 * 1000 };

/** Checkout recovery: what the buyer opened, for the reminders (checkout/recovery.ts). */
export async function checkoutRecoveryRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  /** The billing dialog opened (signed in, CSRF token as every unsafe call): remembered for checkout recovery. */
  app.post(
    '/api/checkout/opened',
    documented(
      {
        tags: ['Shop'],
        summary: 'The billing dialog opened for a tool',
        description:
          'Remembered so that a buyer who leaves without paying gets a reminder after an hour and a last one after a day (unless they turned checkout reminders off).',
        security: SESSION,
        body: checkoutOpenedSchema,
        response: { 200: checkoutOpenedAnswerSchema, ...refusals(400, 401, 403, 404, 429) },
      },
      CALLER_FIRST,
    ),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      await ctx.limiter.consume({ key: `checkout-opened:${user.id}`, ...OPENED_LIMIT });
      refuseInvalidInput(request);
      const { toolId, couponCode } = request.body;
      const tool = await findActiveTool(ctx.db, toolId);
      if (!tool) throw notFound('Unknown tool');
      reply.header('cache-control', 'no-store');
      if (tool.comingSoon || (await ownedToolIds(ctx.db, user.id)).has(tool.id)) return { recorded: false };
      await recordCheckoutStart(ctx.db, { userId: user.id, toolId, couponCode, at: ctx.clock.now() });
      return { recorded: true };
    },
  );
}
