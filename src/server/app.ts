import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { authRoutes } from './auth/routes';
import { contactRoutes } from './contact/routes';
import type { AppContext } from './context';
import { dashboardRoutes } from './dashboard/routes';
import { registerCsrf } from './http/csrf';
import { registerErrorHandler, sendJsonNotFound } from './http/errors';
import { registerSecurityHeaders } from './http/security-headers';
import { locationRoutes } from './location/routes';
import { devMailboxRoutes } from './mail/dev-mailbox';
import type { RazorpayEmulator } from './payments/emulator';
import { paymentsRoutes } from './payments/routes';
import { shopRoutes } from './shop/routes';
import { registerStaticSite } from './site/static';

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
}> {
  const { ctx } = options;
  const { config } = ctx;

  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });

  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  registerErrorHandler(app);
  registerSecurityHeaders(app, config);
  registerCsrf(app, config);

  await locationRoutes(app, ctx);
  await contactRoutes(app, ctx);
  await authRoutes(app, ctx);
  await shopRoutes(app, ctx);
  const emulator = await paymentsRoutes(app, ctx);
  await dashboardRoutes(app, ctx);
  if (!config.isProduction) await devMailboxRoutes(app, ctx);
  if (options.siteDir) await registerStaticSite(app, options.siteDir);
  else app.setNotFoundHandler((_request, reply) => sendJsonNotFound(reply));

  return { app, ctx, emulator };
}
