import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { newCouponSchema } from '../../../shared/coupons';
import { emptyRequestSchema } from '../../../shared/dashboard';
import { couponDetailSchema, couponSummarySchema } from '../../../shared/dashboard-answers';
import { couponDetail, createCoupon, disableCoupon, listCoupons } from '../../coupons/operator';
import { refusals } from '../../http/answers';
import type { AppContext } from '../../kernel/context';
import { GUARD_REFUSALS, operatorOf } from './guard';

const codeParams = z.object({ code: z.string().trim().min(1).max(64) });

/** /api/admin/coupons: the operator's coupon codes, through the same operations as `coupons …` on the command line. */
export function dashboardCouponRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const list = {
    schema: { response: { 200: z.array(couponSummarySchema), ...refusals(...GUARD_REFUSALS) } },
  };
  app.get('/api/admin/coupons', list, async () => listCoupons(ctx));

  const add = {
    schema: {
      body: newCouponSchema,
      response: { 200: couponSummarySchema, ...refusals(...GUARD_REFUSALS, 400, 409) },
    },
  };
  app.post('/api/admin/coupons', add, async (request) => {
    const input = request.body;
    return createCoupon(ctx, operatorOf(ctx, request).actor, input);
  });

  const one = {
    schema: {
      params: codeParams,
      response: { 200: couponDetailSchema, ...refusals(...GUARD_REFUSALS, 400, 404) },
    },
  };
  app.get('/api/admin/coupons/:code', one, async (request) => couponDetail(ctx, request.params.code));

  app.post(
    '/api/admin/coupons/:code/disable',
    {
      schema: {
        params: codeParams,
        body: emptyRequestSchema,
        response: { 200: couponSummarySchema, ...refusals(...GUARD_REFUSALS, 400, 404) },
      },
    },
    async (request) => {
      return disableCoupon(ctx, operatorOf(ctx, request).actor, request.params.code);
    },
  );
}
