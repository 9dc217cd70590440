import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  checkoutQuoteAnswerSchema,
  createPaymentAnswerSchema,
  proformaAnswerSchema,
  statusAnswerSchema,
} from '../../shared/api-schemas';
import { type CheckoutQuote, checkoutQuoteSchema } from '../../shared/checkout-quote';
import type { ProformaAnswer } from '../../shared/proforma';
import { SHOP_ENDPOINT_MESSAGES, type StatusResponse } from '../../shared/shop';
import { createPaymentSchema, proformaRequestSchema, verifyPaymentSchema } from '../../shared/shop-schemas';
import { requireUser } from '../auth/session';
import { recordCheckoutStart } from '../checkout/recovery';
import { refusals } from '../http/answers';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { placeOrder } from './place';
import { placeProforma } from './proforma';
import { quoteCheckout } from './quote';
import { verifyPayment } from './verify';

const QUOTE_LIMIT = {
  limit: 60,
  windowMs: 60_000,
  message: 'Too many requests. Please wait a minute and try again.',
};

/**
 * The checkout's calls, every kind of order alike: the quote the billing dialog shows, the order it places (and
 * Razorpay's order for it), and the browser's report of the payment.
 */
export async function checkoutRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
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
      const answer = await placeOrder(ctx, user, body, { ip: request.ip });
      // Checkout recovery: a payment for a tool opened and not paid is reminded like a billing dialog left open
      // (an upgrade names no tool to buy). The order exists by now, so a failure to remember it is logged rather
      // than refusing the payment.
      const { toolId } = body;
      if (toolId)
        await recordCheckoutStart(ctx.db, { ...body, toolId, userId: user.id, at: ctx.clock.now() }).catch(
          (error: unknown) => request.log.warn({ err: error }, 'checkout start not recorded'),
        );
      return answer;
    },
  );

  /**
   * A proforma invoice for an order (issue 68): the same order as a checkout's, paid by a Razorpay payment link or a
   * bank transfer until its validity date, optionally less the TDS the buyer deducts. Emailed and on the order's page.
   */
  app.post(
    '/api/checkout/proforma',
    documented(
      {
        tags: ['Shop'],
        summary: 'Ask for a proforma invoice: pay by payment link or bank transfer, optionally less TDS',
        description:
          'For a business buyer with a GSTIN, or a team of seats, in rupees. Takes what create-payment takes plus `tds` (the buyer deducts TDS under s.194J, 10 % of the taxable value) and `pan`. The order is priced by the one pricing function; its coupon is held until `validUntil` (15 days); `amountDue` is the total less TDS, what the payment link asks for and a transfer must cover. The tax invoice follows the payment, with the full value.',
        security: SESSION,
        body: proformaRequestSchema,
        response: { 200: proformaAnswerSchema, ...refusals(400, 401, 403, 404, 409, 429) },
      },
      CALLER_FIRST,
    ),
    async (request, reply): Promise<ProformaAnswer> => {
      const user = await requireUser(ctx, request);
      // A proforma opens an order and a payment link, as create-payment opens an order: the same budget.
      await ctx.limiter.consume({
        key: `create-payment:user:${user.id}`,
        limit: 10,
        windowMs: 60_000,
        message: 'Too many payment attempts. Please wait a minute and try again.',
      });
      reply.header('cache-control', 'no-store');
      refuseInvalidInput(request);
      return placeProforma(ctx, user, request.body, { ip: request.ip });
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
      return { status: 'success', message: SHOP_ENDPOINT_MESSAGES.verify.success };
    },
  );
}
