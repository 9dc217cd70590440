import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswerSchema, ordersAnswerSchema } from '../../shared/api-schemas';
import {
  BILLING_CORRECTION_MESSAGES,
  type BillingCorrectionAnswer,
  billingCorrectionAnswerSchema,
  billingCorrectionSchema,
} from '../../shared/billing-correction';
import { LICENSE_MESSAGES } from '../../shared/licenses';
import type { OrderDetail } from '../../shared/order-detail';
import type { OrderHistoryOrder } from '../../shared/order-history';
import { buyerRefundRequestSchema, type RefundRequestView } from '../../shared/refund-requests';
import { SHOP_ENDPOINT_MESSAGES, SHOP_MESSAGES, type StatusResponse } from '../../shared/shop';
import { sendCredentialsSchema } from '../../shared/shop-schemas';
import { requireUser } from '../auth/session';
import { notFound } from '../http/errors';
import { CALLER_FIRST, pathStrings, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { licenseHold } from '../licenses/status';
import { documented, SESSION } from '../openapi/openapi';
import { correctBilling } from './billing-correction';
import { resendDelivery } from './delivery';
import { listOwnOrders } from './read/buyer-orders';
import { ownOrderDetail } from './read/buyer-page';
import { requestRefund } from './refund-requests';

const CREDENTIALS_MESSAGES = SHOP_MESSAGES.credentials;
const RESEND_LIMIT = { limit: 5, windowMs: 60 * 60 * 1000 };

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The buyer's orders: the list, one order's page (its owner only: anyone else gets 404, as for an order that does
 * not exist), a refund request, a billing correction, and the delivery email sent again ("Get Credentials").
 */
export async function orderRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/orders/',
    documented({
      tags: ['Account'],
      summary: "The signed-in buyer's paid and refunded orders, newest first",
      security: SESSION,
      response: { 200: ordersAnswerSchema, 401: errorAnswerSchema },
    }),
    async (request, reply): Promise<OrderHistoryOrder[]> => {
      const user = await requireUser(ctx, request);
      reply.header('cache-control', 'no-store');
      return listOwnOrders(ctx, user.id);
    },
  );

  app.get(
    '/api/orders/:orderId',
    { schema: { params: pathStrings('orderId') } },
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
    {
      schema: { params: pathStrings('orderId'), body: buyerRefundRequestSchema },
      config: { checksCallerFirst: true },
    },
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
        response: {
          200: billingCorrectionAnswerSchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
          404: errorAnswerSchema,
          409: errorAnswerSchema,
          429: errorAnswerSchema,
        },
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

  app.post(
    '/api/send-tool-credentials/',
    { schema: { body: sendCredentialsSchema }, config: { checksCallerFirst: true } },
    async (request): Promise<StatusResponse> => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { toolId } = request.body;

      await ctx.limiter.consume({
        key: `send-credentials:${user.id}:${toolId}`,
        ...RESEND_LIMIT,
        message: SHOP_ENDPOINT_MESSAGES.credentials.tooMany,
      });
      const hold = await licenseHold(ctx.db, { userId: user.id, toolId });
      if (hold) {
        throw new DomainError(
          'refused',
          hold === 'suspended' ? LICENSE_MESSAGES.licenseSuspended : LICENSE_MESSAGES.licenseRevoked,
        );
      }
      const outcome = await resendDelivery(ctx, { userId: user.id, toolId }, 'web');
      if (outcome.result !== 'sent') throw notFound(SHOP_ENDPOINT_MESSAGES.credentials.notPurchased);
      return { status: 'success', message: CREDENTIALS_MESSAGES.sent };
    },
  );
}
