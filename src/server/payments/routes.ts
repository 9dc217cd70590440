import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type PaymentsConfigResponse, SHOP_MESSAGES, type StatusResponse } from '../../shared/shop';
import { createPaymentSchema, verifyPaymentSchema } from '../../shared/shop-schemas';
import { requireUser } from '../auth/session';
import type { AppContext } from '../context';
import { orders } from '../db/schema';
import { AppError, notFound, parseInput } from '../http/errors';
import { createPayment } from './create-payment';
import { type RazorpayEmulator, registerRazorpayEmulator } from './emulator';
import { fulfilOrder } from './fulfil';
import { EMULATOR_PREFIX, RAZORPAY_CHECKOUT_SCRIPT } from './gateway';
import { verifyCheckoutSignature } from './signatures';
import { WEBHOOK_PATH, webhookRoutes } from './webhook';

/** GET /api/payments/config/: which checkout script the tools page loads, and whether it is the test one. */
const VERIFY_MESSAGES = SHOP_MESSAGES.verify;

/** Returns the emulator it mounted (development and tests without Razorpay keys), e.g. to await its webhooks. */
export async function paymentsRoutes(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<RazorpayEmulator | undefined> {
  const emulatorActive = ctx.config.razorpay.emulated && !ctx.config.isProduction;

  app.get('/api/payments/config/', async (_request, reply): Promise<PaymentsConfigResponse> => {
    reply.header('cache-control', 'no-store');
    return {
      keyId: ctx.config.razorpay.keyId,
      checkoutScript: emulatorActive ? '/emulator/checkout.js' : RAZORPAY_CHECKOUT_SCRIPT,
      testMode: emulatorActive,
    };
  });

  app.post('/api/create-payment/', async (request) => {
    const user = await requireUser(ctx, request);
    await ctx.limiter.consume({
      key: `create-payment:user:${user.id}`,
      limit: 10,
      windowMs: 60_000,
      message: 'Too many payment attempts. Please wait a minute and try again.',
    });
    const body = parseInput(createPaymentSchema, request.body);
    return createPayment(ctx, user, body);
  });

  app.post('/api/verify-payment/', async (request): Promise<StatusResponse> => {
    const user = await requireUser(ctx, request);
    await ctx.limiter.consume({ key: `verify-payment:user:${user.id}`, limit: 30, windowMs: 60_000 });
    const body = parseInput(verifyPaymentSchema, request.body);

    const [order] = await ctx.db
      .select({ id: orders.id, razorpayOrderId: orders.razorpayOrderId })
      .from(orders)
      .where(and(eq(orders.razorpayOrderId, body.razorpay_order_id), eq(orders.userId, user.id)))
      .limit(1);
    if (!order) throw notFound(VERIFY_MESSAGES.orderNotFound);

    // Signed over the order id we stored, never over ids the browser could swap.
    const valid = verifyCheckoutSignature(ctx.config.razorpay.keySecret, {
      orderId: order.razorpayOrderId,
      paymentId: body.razorpay_payment_id,
      signature: body.razorpay_signature,
    });
    if (!valid) throw new AppError(400, 'invalid_signature', VERIFY_MESSAGES.badSignature);

    const outcome = await fulfilOrder(ctx, {
      razorpayOrderId: order.razorpayOrderId,
      razorpayPaymentId: body.razorpay_payment_id,
      source: 'verify',
    });
    request.log.info({ orderId: order.id, outcome }, 'payment verified');
    if (outcome.result === 'fulfilled' || outcome.result === 'already-paid') {
      return { status: 'success', message: VERIFY_MESSAGES.success };
    }
    if (outcome.result === 'duplicate-payment')
      throw new AppError(409, 'duplicate_payment', VERIFY_MESSAGES.duplicate);
    throw new AppError(409, 'payment_not_settled', VERIFY_MESSAGES.notSettled);
  });

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
