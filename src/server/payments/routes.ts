import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createPaymentAnswerSchema,
  paymentsConfigAnswerSchema,
  statusAnswerSchema,
} from '../../shared/api-schemas';
import { type PaymentsConfigResponse, SHOP_MESSAGES, type StatusResponse } from '../../shared/shop';
import { createPaymentSchema, verifyPaymentSchema } from '../../shared/shop-schemas';
import { requireUser } from '../auth/session';
import { recordCheckoutStart } from '../checkout/recovery';
import { refusals } from '../http/answers';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { createPayment } from './create-payment';
import { type RazorpayEmulator, registerRazorpayEmulator } from './emulator';
import { EMULATOR_PREFIX, RAZORPAY_CHECKOUT_SCRIPT } from './gateway';
import { verifyPayment } from './verify-payment';
import { WEBHOOK_PATH, webhookRoutes } from './webhook';

/** Returns the emulator it mounted (development and tests without Razorpay keys), e.g. to await its webhooks. */
export async function paymentsRoutes(
  base: FastifyInstance,
  ctx: AppContext,
): Promise<RazorpayEmulator | undefined> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const emulatorActive = ctx.config.razorpay.emulated && !ctx.config.isProduction;

  /** Which checkout script the tools page loads, and whether it is the test one. */
  const config = documented({
    tags: ['Shop'],
    summary: 'Which checkout script the tools page loads (Razorpay’s, or the local emulator’s)',
    response: { 200: paymentsConfigAnswerSchema, ...refusals() },
  });
  app.get('/api/payments/config/', config, async (_request, reply): Promise<PaymentsConfigResponse> => {
    reply.header('cache-control', 'no-store');
    return {
      keyId: ctx.config.razorpay.keyId,
      checkoutScript: emulatorActive ? '/emulator/checkout.js' : RAZORPAY_CHECKOUT_SCRIPT,
      testMode: emulatorActive,
    };
  });

  app.post(
    '/api/create-payment/',
    documented(
      {
        tags: ['Shop'],
        summary: 'Open a payment: a Razorpay order for a tool, priced by the server',
        description:
          'A 100 % coupon fulfils the order at once (`free`, no Razorpay order). A 5xx may be Razorpay refusing.',
        security: SESSION,
        body: createPaymentSchema,
        response: { 200: createPaymentAnswerSchema, ...refusals(400, 401, 403, 404, 409, 429) },
      },
      CALLER_FIRST,
    ),
    async (request) => {
      const user = await requireUser(ctx, request);
      await ctx.limiter.consume({
        key: `create-payment:user:${user.id}`,
        limit: 10,
        windowMs: 60_000,
        message: 'Too many payment attempts. Please wait a minute and try again.',
      });
      refuseInvalidInput(request);
      const body = request.body;
      const answer = await createPayment(ctx, user, body, { ip: request.ip });
      // Checkout recovery: a payment opened and not paid is reminded like a billing dialog left open. The order
      // exists by now, so a failure to remember it is logged rather than refusing the payment.
      await recordCheckoutStart(ctx.db, { ...body, userId: user.id, at: ctx.clock.now() }).catch(
        (error: unknown) => request.log.warn({ err: error }, 'checkout start not recorded'),
      );
      return answer;
    },
  );

  app.post(
    '/api/verify-payment/',
    documented(
      {
        tags: ['Shop'],
        summary: 'Settle a payment with what Razorpay Checkout handed the browser (its signature checked)',
        security: SESSION,
        body: verifyPaymentSchema,
        response: { 200: statusAnswerSchema, ...refusals(400, 401, 403, 404, 409, 429) },
      },
      CALLER_FIRST,
    ),
    async (request): Promise<StatusResponse> => {
      const user = await requireUser(ctx, request);
      await ctx.limiter.consume({ key: `verify-payment:user:${user.id}`, limit: 30, windowMs: 60_000 });
      refuseInvalidInput(request);
      const body = request.body;

      const { outcome, orderId } = await verifyPayment(ctx, user.id, body);
      request.log.info({ orderId, outcome }, 'payment verified');
      return { status: 'success', message: SHOP_MESSAGES.verify.success };
    },
  );

  await webhookRoutes(app, ctx);

  if (!emulatorActive) return undefined;
  return registerRazorpayEmulator(app, {
    keyId: ctx.config.razorpay.keyId,
    keySecret: ctx.config.razorpay.keySecret,
    webhookSecret: ctx.config.razorpay.webhookSecret,
    webhookUrl: `${ctx.config.publicUrl}${WEBHOOK_PATH}`,
    prefix: EMULATOR_PREFIX.replace(/\/razorpay$/, ''),
    log: app.log,
  });
}
