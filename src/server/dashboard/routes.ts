import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../kernel/context';
import { couponRoutes } from './routes/coupons';
import { customerRoutes } from './routes/customers';
import { guardDashboard } from './routes/guard';
import { inboxRoutes } from './routes/inbox';
import { orderRoutes } from './routes/orders';
import { refundRequestRoutes } from './routes/refund-requests';
import { releaseRoutes } from './routes/releases';
import { reportRoutes } from './routes/reports';
import { secondFactorRoutes } from './routes/second-factor';
import { toolRoutes } from './routes/tools';
import { trialRoutes } from './routes/trials';
import { webhookRoutes } from './routes/webhooks';

/**
 * /api/admin/…: the operator's dashboard (docs/product.md §12), one plugin per resource. /api/admin/auth/ is how
 * an operator passes the second factor; every other route sits in one scope whose onRequest hook lets in only an
 * operator who passed it in this session, before any body is read.
 */
export async function dashboardRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register((scope) => secondFactorRoutes(scope, ctx));
  await app.register(async (scope) => {
    guardDashboard(scope, ctx);
    orderRoutes(scope, ctx);
    customerRoutes(scope, ctx);
    inboxRoutes(scope, ctx);
    reportRoutes(scope, ctx);
    couponRoutes(scope, ctx);
    webhookRoutes(scope, ctx);
    refundRequestRoutes(scope, ctx);
    await toolRoutes(scope, ctx);
    await trialRoutes(scope, ctx);
    await releaseRoutes(scope, ctx);
  });
}
