import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { checkoutQuoteAnswerSchema } from '../../shared/api-schemas';
import { type CheckoutQuote, checkoutQuoteSchema } from '../../shared/checkout-quote';
import { checkoutOpenedAnswerSchema, checkoutOpenedSchema } from '../../shared/checkout-recovery';
import { requireUser } from '../auth/session';
import { refusals } from '../http/answers';
import { notFound } from '../http/errors';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { findActiveTool, ownedToolIds } from '../shop/catalogue';
import { quoteCheckout } from './quote';
import { recordCheckoutStart } from './recovery';

/** The billing dialog opens a few times a visit at most; this only bounds a script. */
const OPENED_LIMIT = { limit: 30, windowMs: 60 * 1000 };
const QUOTE_LIMIT = {
  limit: 60,
  windowMs: 60_000,
  message: 'Too many requests. Please wait a minute and try again.',
};

export async function checkoutRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
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

  /**
   * What an order would cost this buyer, priced by the one pricing function the payment and the invoice use; a code
   * that does not apply is a normal answer with its reason. A code counts against the coupon guess budget (judgeCoupon).
   */
  app.post(
    '/api/checkout/quote',
    documented(
      {
        tags: ['Shop'],
        summary: 'Price an order for the billing dialog',
        description:
          'List price, coupon, discount, taxable value, GST as the invoice will split it, and the total, in the currency’s subunits: the amount create-payment charges.',
        security: SESSION,
        body: checkoutQuoteSchema,
        response: { 200: checkoutQuoteAnswerSchema, ...refusals(400, 401, 403, 404, 429) },
      },
      CALLER_FIRST,
    ),
    async (request, reply): Promise<CheckoutQuote> => {
      const user = await requireUser(ctx, request);
      // A quote reprices as the buyer types: its own budget, generous for that, tight enough for a script.
      await ctx.limiter.consume({ key: `checkout-quote:user:${user.id}`, ...QUOTE_LIMIT });
      reply.header('cache-control', 'no-store');
      refuseInvalidInput(request);
      return quoteCheckout(ctx, { userId: user.id, ip: request.ip }, request.body);
    },
  );
}
