import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { newCouponSchema } from '../../../shared/coupons';
import { emptyRequestSchema } from '../../../shared/dashboard';
import { couponDetail, createCoupon, disableCoupon, listCoupons } from '../../coupons/operations';
import { parseInput } from '../../http/errors';
import type { AppContext } from '../../kernel/context';
import { operatorOf } from '../guard';

const codeParams = z.object({ code: z.string().trim().min(1).max(64) });

/** /api/admin/coupons: the operator's coupon codes, through the same operations as `coupons …` on the command line. */
export function couponRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/admin/coupons', async () => listCoupons(ctx));

  app.post('/api/admin/coupons', async (request) => {
    const input = parseInput(newCouponSchema, request.body);
    return createCoupon(ctx, operatorOf(request).actor, input);
  });

  app.get('/api/admin/coupons/:code', async (request) =>
    couponDetail(ctx, parseInput(codeParams, request.params).code),
  );

  app.post('/api/admin/coupons/:code/disable', async (request) => {
    parseInput(emptyRequestSchema, request.body);
    return disableCoupon(ctx, operatorOf(request).actor, parseInput(codeParams, request.params).code);
  });
}
