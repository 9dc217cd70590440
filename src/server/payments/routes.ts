import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type PaymentsConfigResponse, SHOP_MESSAGES, type StatusResponse } from '../../shared/shop';
import { createPaymentSchema, verifyPaymentSchema } from '../../shared/shop-schemas';
import { requireUser } from '../auth/session';
import { recordCheckoutStart } from '../checkout/recovery';
import { refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
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
  app.get('/api/payments/config/', async (_request, reply): Promise<PaymentsConfigResponse> => {
    reply.header('cache-control', 'no-store');
    return {
      keyId: ctx.config.razorpay.keyId,
      checkoutScript: emulatorActive ? '/emulator/checkout.js' : RAZORPAY_CHECKOUT_SCRIPT,
      testMode: emulatorActive,
    };
  });

  app.post(
    '/api/create-payment/',
    { schema: { body: createPaymentSchema }, config: { checksCallerFirst: true } },
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
    { schema: { body: verifyPaymentSchema }, config: { checksCallerFirst: true } },
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
