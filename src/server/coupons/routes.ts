import type { FastifyInstance } from 'fastify';
import { type CouponCheckResponse, couponCheckSchema } from '../../shared/coupons';
import { requireUser } from '../auth/session';
import type { AppContext } from '../context';
import { parseInput } from '../http/errors';
import { checkCoupon } from './check';

export async function couponRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/api/coupons/check', async (request, reply): Promise<CouponCheckResponse> => {
    const user = await requireUser(ctx, request);
    reply.header('cache-control', 'no-store');
    return checkCoupon(ctx, { userId: user.id, ip: request.ip }, parseInput(couponCheckSchema, request.body));
  });
}
