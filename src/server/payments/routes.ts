import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paymentsConfigAnswerSchema } from '../../shared/api-schemas';
import type { PaymentsConfigResponse } from '../../shared/shop';
import { refusals } from '../http/answers';
import type { AppContext } from '../kernel/context';
import { documented } from '../openapi/openapi';
import { type RazorpayEmulator, registerRazorpayEmulator } from './emulator';
import { EMULATOR_PREFIX, RAZORPAY_CHECKOUT_SCRIPT } from './gateway';
import type { RazorpayEventHandler } from './razorpay-event';
import { WEBHOOK_PATH, webhookRoutes } from './webhook';

/**
 * The gateway's side of the shop: which checkout script the page loads, Razorpay's webhook (its events go to
 * `applyEvent`, the orders' dispatch) and, without Razorpay keys outside production, the emulator. Returns the
 * emulator it mounted, e.g. for tests to await its webhooks.
 */
export async function paymentsRoutes(
  base: FastifyInstance,
  ctx: AppContext,
  applyEvent: RazorpayEventHandler,
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

  await webhookRoutes(app, ctx, applyEvent);

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
