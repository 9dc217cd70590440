import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../kernel/context';
import { dashboardCouponRoutes } from './routes/coupons';
import { customerRoutes } from './routes/customers';
import { guardDashboard } from './routes/guard';
import { dashboardMessageRoutes } from './routes/messages';
import { dashboardOrderRoutes } from './routes/orders';
import { refundRequestRoutes } from './routes/refund-requests';
import { dashboardReleaseRoutes } from './routes/releases';
import { reportRoutes } from './routes/reports';
import { secondFactorRoutes } from './routes/second-factor';
import { toolRoutes } from './routes/tools';
import { dashboardTrialRoutes } from './routes/trials';
import { dashboardWebhookRoutes } from './routes/webhooks';

/**
 * /api/admin/…: the operator's dashboard (docs/product.md §12), one plugin per resource. /api/admin/auth/ is how
 * an operator passes the second factor; every other route sits in one scope whose onRequest hook lets in only an
 * operator who passed it in this session, before any body is read.
 */
export async function dashboardRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register((scope) => secondFactorRoutes(scope, ctx));
  await app.register(async (scope) => {
    guardDashboard(scope, ctx);
    dashboardOrderRoutes(scope, ctx);
    customerRoutes(scope, ctx);
    dashboardMessageRoutes(scope, ctx);
    reportRoutes(scope, ctx);
    dashboardCouponRoutes(scope, ctx);
    dashboardWebhookRoutes(scope, ctx);
    refundRequestRoutes(scope, ctx);
    await toolRoutes(scope, ctx);
    await dashboardTrialRoutes(scope, ctx);
    await dashboardReleaseRoutes(scope, ctx);
  });
}
