import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { totpCodeSchema } from '../../../shared/dashboard';
import type { AppContext } from '../../kernel/context';
import { requireFreshCode } from '../../operator/second-factor';
import { approveRefundRequest, declineRefundRequest, listRefundRequests } from '../../orders/refund-requests';
import { idPath, operatorOf } from './guard';

const approveSchema = z.strictObject({ code: totpCodeSchema });
const declineSchema = z.strictObject({
  reason: z
    .string({ error: 'Give the reason the buyer will read.' })
    .trim()
    .min(3, 'Give the reason the buyer will read.')
    .max(1000, 'At most 1000 characters.'),
});

/**
 * /api/admin/refund-requests: the buyers' refund requests queue, through the same operations as
 * `refunds requests …` on the command line. Approving refunds money, so it asks a fresh code like a refund does.
 */
export function refundRequestRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/api/admin/refund-requests', async () => listRefundRequests(ctx, { status: 'open' }));

  app.post(
    '/api/admin/refund-requests/:id/approve',
    { schema: { params: idPath, body: approveSchema } },
    async (request) => {
      const id = request.params.id;
      const input = request.body;
      const { actor } = operatorOf(request);
      await requireFreshCode(ctx, actor, input.code);
      const result = await approveRefundRequest(ctx, actor, id);
      return { message: 'Approved and refunded; the buyer is told by email.', request: result };
    },
  );

  app.post(
    '/api/admin/refund-requests/:id/decline',
    { schema: { params: idPath, body: declineSchema } },
    async (request) => {
      const id = request.params.id;
      const input = request.body;
      const result = await declineRefundRequest(ctx, operatorOf(request).actor, id, input.reason);
      return { message: 'Declined; the buyer is emailed the reason.', request: result };
    },
  );
}
