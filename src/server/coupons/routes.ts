import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { couponCheckAnswerSchema } from '../../shared/api-schemas';
import { type CouponCheckResponse, couponCheckSchema } from '../../shared/coupons';
import { requireUser } from '../auth/session';
import { refusals } from '../http/answers';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { checkCoupon } from './check';

export async function couponRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/coupons/check',
    documented(
      {
        tags: ['Shop'],
        summary: 'Price a tool with a coupon code',
        security: SESSION,
        body: couponCheckSchema,
        response: { 200: couponCheckAnswerSchema, ...refusals(400, 401, 403, 429) },
      },
      CALLER_FIRST,
    ),
    async (request, reply): Promise<CouponCheckResponse> => {
      const user = await requireUser(ctx, request);
      reply.header('cache-control', 'no-store');
      refuseInvalidInput(request);
      return checkCoupon(ctx, { userId: user.id, ip: request.ip }, request.body);
    },
  );
}
