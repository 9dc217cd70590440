import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, {
  type FastifyContextConfig,
  type FastifyInstance,
  type FastifySchema,
  type RouteOptions,
} from 'fastify';
import { accountRoutes } from './account/routes';
import { authRoutes } from './auth/routes';
import { shopRoutes } from './catalogue/routes';
import { checkoutRecoveryRoutes } from './checkout/routes';
import { contactRoutes } from './contact/routes';
import { couponRoutes } from './coupons/routes';
import { dashboardRoutes } from './dashboard/routes';
import { dataRightsRoutes } from './data-rights/routes';
import { databaseUnavailable, healthRoutes, registerDatabaseGuard } from './health/routes';
import { registerCsrf } from './http/csrf';
import { registerErrorHandler, sendJsonNotFound } from './http/errors';
import { FORM_BODY_LIMIT, registerDeclaredSizeLimit } from './http/form-data';
import { registerInputPolicy } from './http/input-policy';
import { withLogRedaction } from './http/logging';
import { registerRouteSchemas } from './http/route-schemas';
import { registerSecurityHeaders } from './http/security-headers';
import { taxDocumentRoutes } from './invoices/routes';
import type { AppContext } from './kernel/context';
import { myLicensesRoutes } from './licenses/my-licenses-routes';
import { licenseApiRoutes } from './licenses/routes';
import { locationRoutes } from './location/routes';
import { devMailboxRoutes } from './mail/dev-mailbox-routes';
import { metricsRoutes, outboxDepth } from './metrics';
import { openApiRoutes, registerOpenApi } from './openapi/openapi';
import { checkoutRoutes } from './orders/checkout-routes';
import { applyRazorpayEvent } from './orders/razorpay-events';
import { orderRoutes } from './orders/routes';
import type { RazorpayEmulator } from './payments/emulator';
import { paymentsRoutes } from './payments/routes';
import { updateFeedRoutes } from './releases/feed-routes';
import { releaseRoutes } from './releases/routes';
import { updateCheckRoutes } from './releases/update-check-routes';
import { registerStaticSite } from './site/static';
import { teamRoutes } from './teams/routes';
import { trialRoutes } from './trials/routes';

export type BuildAppOptions = {
  /** From `createAppContext`: the app serves this context's services. */
  ctx: AppContext;
  /** Folder with the built site (dist/client); the site is not served when it is missing. */
  siteDir?: string;
  logger?: boolean | object;
};

/** A route as Fastify recorded it: what the access and schema tests walk so none is missed. */
export type RegisteredRoute = {
  method: string;
  url: string;
  schema?: FastifySchema;
  config?: FastifyContextConfig;
  handler: RouteOptions['handler'];
};

/** Builds the whole HTTP app with no side effects: no listening, no timers, no migrations. */
export async function buildApp(options: BuildAppOptions): Promise<{
  app: FastifyInstance;
  ctx: AppContext;
  /** The Razorpay emulator this app mounted (development and tests without Razorpay keys). */
  emulator?: RazorpayEmulator;
  /** Every route registered, as Fastify recorded it: what the access tests walk so none is missed. */
  routes: ReadonlyArray<RegisteredRoute>;
}> {
  const { ctx } = options;
  const { config } = ctx;

  const app = Fastify({
    logger: withLogRedaction(options.logger),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      routes.push({
        method,
        url: route.url,
        schema: route.schema,
        config: route.config,
        handler: route.handler,
      });
  });
  // Before any route: every route's schema is compiled by it.
  registerRouteSchemas(app);

  const { dbHealth } = ctx;
  dbHealth.logTo(app.log);
  registerDatabaseGuard(app, dbHealth);
  registerDeclaredSizeLimit(app);
  registerInputPolicy(app);
  registerErrorHandler(app, (error) => (dbHealth.observe(error) ? databaseUnavailable() : undefined));
  registerSecurityHeaders(app, config);
  // Before every route it describes: the generator collects them as they are added.
  await registerOpenApi(app, config.publicUrl);
  // Before the other routes, so its hook times every one of them.
  await metricsRoutes(app, ctx.metrics, {
    token: config.metricsToken,
    sources: { outboxDepth: () => outboxDepth(ctx.db), pool: ctx.poolStats },
  });
  await healthRoutes(app, ctx);
  openApiRoutes(app);

  // What desktop tools and their updaters call: JSON or files to programs, which hold no cookie and send no CSRF
  // token, so none of the site's cookie and form handling runs on the API every start of every tool calls.
  await licenseApiRoutes(app, ctx);
  await updateCheckRoutes(app, ctx);
  await updateFeedRoutes(app, ctx);
  await releaseRoutes(app, ctx);

  // The site and its visitors: sessions in cookies, the CSRF check on every unsafe /api/ call, HTML forms.
  let emulator: RazorpayEmulator | undefined;
  await app.register(async (site) => {
    await site.register(cookie);
    await site.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
    registerCsrf(site, config);
    await locationRoutes(site, ctx);
    await contactRoutes(site, ctx);
    await authRoutes(site, ctx);
    await accountRoutes(site, ctx);
    await dataRightsRoutes(site, ctx);
    await shopRoutes(site, ctx);
    await orderRoutes(site, ctx);
    await taxDocumentRoutes(site, ctx);
    await couponRoutes(site, ctx);
    await checkoutRecoveryRoutes(site, ctx);
    await checkoutRoutes(site, ctx);
    emulator = await paymentsRoutes(site, ctx, (event) => applyRazorpayEvent(ctx, event));
    await myLicensesRoutes(site, ctx);
    await teamRoutes(site, ctx);
    await trialRoutes(site, ctx);
    await dashboardRoutes(site, ctx);
    if (!config.isProduction) await devMailboxRoutes(site, ctx);
  });

  // The built site's files hold nothing of the visitor's: served outside the site's scope, so no page or asset
  // parses cookies or passes the CSRF hook (what is left on their path: the input policy, the security headers,
  // the metrics).
  if (options.siteDir) await registerStaticSite(app, options.siteDir);
  else app.setNotFoundHandler((_request, reply) => sendJsonNotFound(reply));

  return { app, ctx, emulator, routes };
}
