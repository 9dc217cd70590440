import type { FastifyInstance } from 'fastify';
import type { OrderDetail } from '../../shared/order-detail';
import { buyerRefundRequestSchema, type RefundRequestView } from '../../shared/refund-requests';
import { requireUser } from '../auth/session';
import { notFound, parseInput } from '../http/errors';
import type { AppContext } from '../kernel/context';
import { ownOrderDetail } from './detail';
import { requestRefund } from './refund-requests';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The order page's API: one order, for its owner only (anyone else: 404, as for an order that does not exist). */
export async function orderPageRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { orderId: string } }>(
    '/api/orders/:orderId',
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

  app.post<{ Params: { orderId: string } }>(
    '/api/orders/:orderId/refund-request',
    async (request): Promise<RefundRequestView> => {
      const user = await requireUser(ctx, request);
      await ctx.limiter.consume({ key: `refund-request:user:${user.id}`, limit: 5, windowMs: 60 * 60_000 });
      const { orderId } = request.params;
      if (!UUID_PATTERN.test(orderId)) throw notFound();
      const body = parseInput(buyerRefundRequestSchema, request.body);
      return requestRefund(ctx, { userId: user.id, orderId, body });
    },
  );
}
