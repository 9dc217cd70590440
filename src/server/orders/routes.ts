import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { orderDetailSchema, refundRequestViewSchema } from '../../shared/api-schemas';
import {
  BILLING_CORRECTION_MESSAGES,
  type BillingCorrectionAnswer,
  billingCorrectionAnswerSchema,
  billingCorrectionSchema,
} from '../../shared/billing-correction';
import type { OrderDetail } from '../../shared/order-detail';
import { buyerRefundRequestSchema, type RefundRequestView } from '../../shared/refund-requests';
import { requireUser } from '../auth/session';
import { refusals } from '../http/answers';
import { notFound } from '../http/errors';
import { CALLER_FIRST, pathStrings, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { correctBilling } from './billing-correction';
import { ownOrderDetail } from './detail';
import { requestRefund } from './refund-requests';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The order page's API: one order, for its owner only (anyone else: 404, as for an order that does not exist). */
export async function orderPageRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/orders/:orderId',
    documented({
      tags: ['Account'],
      summary:
        'One of the buyer’s orders: lines, price as invoiced, payment, tax documents, license, history',
      security: SESSION,
      params: pathStrings('orderId'),
      response: { 200: orderDetailSchema, ...refusals(401, 404) },
    }),
    async (request, reply): Promise<OrderDetail> => {
      const user = await requireUser(ctx, request);
      const { orderId } = request.params;
      if (!UUID_PATTERN.test(orderId)) throw notFound();
      const detail = await ownOrderDetail(ctx, { userId: user.id, orderId });
      if (!detail) throw notFound();
      reply.header('cache-control', 'private, no-store');
      return detail;
    },
  );

  app.post(
    '/api/orders/:orderId/refund-request',
    documented(
      {
        tags: ['Account'],
        summary: 'Ask for a refund under one of the Refund Policy’s exceptions',
        security: SESSION,
        params: pathStrings('orderId'),
        body: buyerRefundRequestSchema,
        response: { 200: refundRequestViewSchema, ...refusals(400, 401, 403, 404, 409, 429) },
      },
      CALLER_FIRST,
    ),
    async (request): Promise<RefundRequestView> => {
      const user = await requireUser(ctx, request);
      await ctx.limiter.consume({ key: `refund-request:user:${user.id}`, limit: 5, windowMs: 60 * 60_000 });
      const { orderId } = request.params;
      if (!UUID_PATTERN.test(orderId)) throw notFound();
      refuseInvalidInput(request);
      const body = request.body;
      return requestRefund(ctx, { userId: user.id, orderId, body });
    },
  );

  app.post(
    '/api/orders/:orderId/billing',
    documented(
      {
        tags: ['Account'],
        summary: 'Add or correct the GSTIN and billing address of a paid order',
        description:
          'Until 30 November after the end of the financial year of the invoice (CGST Act s. 34): a credit note cancels the current invoice and a new invoice with the new details replaces it; both are emailed in one message. Owner only (404 for anyone else).',
        security: SESSION,
        params: pathStrings('orderId'),
        body: billingCorrectionSchema,
        response: { 200: billingCorrectionAnswerSchema, ...refusals(400, 401, 403, 404, 409, 429) },
      },
      CALLER_FIRST,
    ),
    async (request): Promise<BillingCorrectionAnswer> => {
      const user = await requireUser(ctx, request);
      await ctx.limiter.consume({
        key: `billing-correction:user:${user.id}`,
        limit: 10,
        windowMs: 60 * 60_000,
      });
      const { orderId } = request.params;
      if (!UUID_PATTERN.test(orderId)) throw notFound();
      refuseInvalidInput(request);
      const issued = await correctBilling(ctx, { userId: user.id, orderId, body: request.body });
      return {
        message: BILLING_CORRECTION_MESSAGES.done(issued.creditNote.number, issued.invoice.number),
        creditNote: { number: issued.creditNote.number },
        invoice: { number: issued.invoice.number },
      };
    },
  );
}
