import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { newCouponSchema } from '../../../shared/coupons';
import { emptyRequestSchema } from '../../../shared/dashboard';
import { couponDetail, createCoupon, disableCoupon, listCoupons } from '../../coupons/operator';
import type { AppContext } from '../../kernel/context';
import { operatorOf } from './guard';

const codeParams = z.object({ code: z.string().trim().min(1).max(64) });

/** /api/admin/coupons: the operator's coupon codes, through the same operations as `coupons …` on the command line. */
export function couponRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/api/admin/coupons', async () => listCoupons(ctx));

  app.post('/api/admin/coupons', { schema: { body: newCouponSchema } }, async (request) => {
    const input = request.body;
    return createCoupon(ctx, operatorOf(request).actor, input);
  });

  app.get('/api/admin/coupons/:code', { schema: { params: codeParams } }, async (request) =>
    couponDetail(ctx, request.params.code),
  );

  app.post(
    '/api/admin/coupons/:code/disable',
    { schema: { params: codeParams, body: emptyRequestSchema } },
    async (request) => {
      return disableCoupon(ctx, operatorOf(request).actor, request.params.code);
    },
  );
}
