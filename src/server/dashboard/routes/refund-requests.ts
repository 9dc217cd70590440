import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refundRequestViewSchema } from '../../../shared/api-schemas';
import { CURRENCIES } from '../../../shared/constants';
import { totpCodeSchema } from '../../../shared/dashboard';
import { refundRequestRowSchema } from '../../../shared/dashboard-answers';
import { exactly } from '../../../shared/exactly';
import { refusals } from '../../http/answers';
import type { AppContext } from '../../kernel/context';
import { requireFreshCode } from '../../operator/second-factor';
import type { RefundResult } from '../../orders/refund';
import { approveRefundRequest, declineRefundRequest, listRefundRequests } from '../../orders/refund-requests';
import { GUARD_REFUSALS, idPath, operatorOf } from './guard';

const approveSchema = z.strictObject({ code: totpCodeSchema });
const declineSchema = z.strictObject({
  reason: z
    .string({ error: 'Give the reason the buyer will read.' })
    .trim()
    .min(3, 'Give the reason the buyer will read.')
    .max(1000, 'At most 1000 characters.'),
});

/** What approving refunded (nothing when the order was refunded already): the refund operation's own result. */
const refundResultSchema = exactly<RefundResult>()(
  z.object({
    orderId: z.string(),
    razorpayPaymentId: z.string(),
    refundId: z.string().nullable(),
    amount: z.number(),
    currency: z.enum(CURRENCIES),
    refundedEarlier: z.boolean(),
    purchaseId: z.string().nullable(),
    downloadLinksRevoked: z.int(),
    outboxId: z.int(),
    seatsBeyondPaid: z.object({ teamLicenseId: z.string(), seats: z.int(), used: z.int() }).nullable(),
  }),
);
const decidedSchema = <Request extends z.ZodType>(request: Request) =>
  z.object({ message: z.string(), request });

/**
 * /api/admin/refund-requests: the buyers' refund requests queue, through the same operations as
 * `refunds requests …` on the command line. Approving refunds money, so it asks a fresh code like a refund does.
 */
export function refundRequestRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const queue = {
    schema: { response: { 200: z.array(refundRequestRowSchema), ...refusals(...GUARD_REFUSALS) } },
  };
  app.get('/api/admin/refund-requests', queue, async () => listRefundRequests(ctx, { status: 'open' }));

  app.post(
    '/api/admin/refund-requests/:id/approve',
    {
      schema: {
        params: idPath,
        body: approveSchema,
        response: {
          200: decidedSchema(refundRequestViewSchema.extend({ refund: refundResultSchema.nullable() })),
          ...refusals(...GUARD_REFUSALS, 400, 404, 409),
        },
      },
    },
    async (request) => {
      const id = request.params.id;
      const input = request.body;
      const { actor } = operatorOf(ctx, request);
      await requireFreshCode(ctx, actor, input.code);
      const result = await approveRefundRequest(ctx, actor, id);
      return { message: 'Approved and refunded; the buyer is told by email.', request: result };
    },
  );

  app.post(
    '/api/admin/refund-requests/:id/decline',
    {
      schema: {
        params: idPath,
        body: declineSchema,
        response: {
          200: decidedSchema(refundRequestViewSchema),
          ...refusals(...GUARD_REFUSALS, 400, 404, 409),
        },
      },
    },
    async (request) => {
      const id = request.params.id;
      const input = request.body;
      const result = await declineRefundRequest(ctx, operatorOf(ctx, request).actor, id, input.reason);
      return { message: 'Declined; the buyer is emailed the reason.', request: result };
    },
  );
}
