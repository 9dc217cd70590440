import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { dataRightsRoutes } from './account/data-rights-routes';
import { accountRoutes } from './account/routes';
import { authRoutes } from './auth/routes';
import { contactRoutes } from './contact/routes';
import type { AppContext } from './context';
import { couponRoutes } from './coupons/routes';
import { dashboardRoutes } from './dashboard/routes';
import { databaseUnavailable, healthRoutes, registerDatabaseGuard } from './health/routes';
import { registerCsrf } from './http/csrf';
import { registerErrorHandler, sendJsonNotFound } from './http/errors';
import { FORM_BODY_LIMIT, registerDeclaredSizeLimit } from './http/form-data';
import { registerInputPolicy } from './http/input-policy';
import { withLogRedaction } from './http/logging';
import { registerSecurityHeaders } from './http/security-headers';
import { orderRoutes } from './invoices/routes';
import { licenseRoutes } from './licenses/routes';
import { locationRoutes } from './location/routes';
import { devMailboxRoutes } from './mail/dev-mailbox';
import { metricsRoutes, outboxDepth } from './metrics';
import type { RazorpayEmulator } from './payments/emulator';
import { paymentsRoutes } from './payments/routes';
import { updateFeedRoutes } from './releases/feed-routes';
import { releaseRoutes } from './releases/routes';
import { updateCheckRoutes } from './releases/update-check';
import { shopRoutes } from './shop/routes';
import { registerStaticSite } from './site/static';
import { trialRoutes } from './trials/routes';

export type BuildAppOptions = {
  /** From `createAppContext`: the app serves this context's services. */
  ctx: AppContext;
  /** Folder with the built site (dist/client); the site is not served when it is missing. */
  siteDir?: string;
  logger?: boolean | object;
};

/** Builds the whole HTTP app with no side effects: no listening, no timers, no migrations. */
export async function buildApp(options: BuildAppOptions): Promise<{
  app: FastifyInstance;
  ctx: AppContext;
  /** The Razorpay emulator this app mounted (development and tests without Razorpay keys). */
  emulator?: RazorpayEmulator;
  /** Every route registered, as Fastify recorded it: what the access tests walk so none is missed. */
  routes: ReadonlyArray<{ method: string; url: string }>;
}> {
  const { ctx } = options;
  const { config } = ctx;

  const app = Fastify({
    logger: withLogRedaction(options.logger),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  const routes: Array<{ method: string; url: string }> = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });

  const { dbHealth } = ctx;
  dbHealth.logTo(app.log);
  registerDatabaseGuard(app, dbHealth);
  registerDeclaredSizeLimit(app);
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
  registerInputPolicy(app);
  registerErrorHandler(app, (error) => (dbHealth.observe(error) ? databaseUnavailable() : undefined));
  registerSecurityHeaders(app, config);
  registerCsrf(app, config);
  // Before the routes, so its hook times every one of them.
  await metricsRoutes(app, ctx.metrics, {
    token: config.metricsToken,
    sources: { outboxDepth: () => outboxDepth(ctx.db), pool: ctx.poolStats },
  });

  await healthRoutes(app, ctx);
  await locationRoutes(app, ctx);
  await contactRoutes(app, ctx);
  await authRoutes(app, ctx);
  await accountRoutes(app, ctx);
  await dataRightsRoutes(app, ctx);
  await shopRoutes(app, ctx);
  await orderRoutes(app, ctx);
  await couponRoutes(app, ctx);
  const emulator = await paymentsRoutes(app, ctx);
  await licenseRoutes(app, ctx);
  await trialRoutes(app, ctx);
  await releaseRoutes(app, ctx);
  await updateFeedRoutes(app, ctx);
  await updateCheckRoutes(app, ctx);
  await dashboardRoutes(app, ctx);
  if (!config.isProduction) await devMailboxRoutes(app, ctx);
  if (options.siteDir) await registerStaticSite(app, options.siteDir);
  else app.setNotFoundHandler((_request, reply) => sendJsonNotFound(reply));

  return { app, ctx, emulator, routes };
}
