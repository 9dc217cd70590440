import type { FastifyInstance } from 'fastify';
import { couponCheckAnswerSchema, errorAnswerSchema } from '../../shared/api-schemas';
import { COUPON_MESSAGES, type CouponCheckResponse, couponCheckSchema } from '../../shared/coupons';
import { requireUser } from '../auth/session';
import type { AppContext } from '../context';
import { parseInput } from '../http/errors';
import { documented, SESSION } from '../openapi/openapi';
import { checkCoupon } from './check';

/** Guessing codes is the abuse to stop: every try counts, per account and per address, before it is judged. */
const TRIES_PER_ACCOUNT = { limit: 10, windowMs: 60_000, message: COUPON_MESSAGES.tooMany };
const TRIES_PER_ADDRESS = { limit: 30, windowMs: 60_000, message: COUPON_MESSAGES.tooMany };

export async function couponRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post(
    '/api/coupons/check',
    documented({
      tags: ['Shop'],
      summary: 'Price a tool with a coupon code',
      security: SESSION,
      body: couponCheckSchema,
      response: {
        200: couponCheckAnswerSchema,
        400: errorAnswerSchema,
        401: errorAnswerSchema,
        429: errorAnswerSchema,
      },
    }),
    async (request, reply): Promise<CouponCheckResponse> => {
      const user = await requireUser(ctx, request);
      await ctx.limiter.consume({ key: `coupon-try:user:${user.id}`, ...TRIES_PER_ACCOUNT });
      await ctx.limiter.consume({ key: `coupon-try:ip:${request.ip}`, ...TRIES_PER_ADDRESS });
      reply.header('cache-control', 'no-store');
      return checkCoupon(ctx, user.id, parseInput(couponCheckSchema, request.body));
    },
  );
}
