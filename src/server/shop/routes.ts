import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { catalogueAnswerSchema, myToolsAnswerSchema, statusAnswerSchema } from '../../shared/api-schemas';
import { LICENSE_MESSAGES } from '../../shared/licenses';
import { type PurchasedTool, SHOP_MESSAGES, type StatusResponse } from '../../shared/shop';
import { sendCredentialsSchema } from '../../shared/shop-schemas';
import { currentUser, requireUser } from '../auth/session';
import { refusals } from '../http/answers';
import { notFound } from '../http/errors';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { licenseHold } from '../licenses/status';
import { documented, SESSION } from '../openapi/openapi';
import { activeCatalogue, cachedShopperTools, purchasedTools } from './catalogue';
import { resendDelivery } from './delivery';
import { downloadRoutes } from './downloads';

const CREDENTIALS_MESSAGES = SHOP_MESSAGES.credentials;

const RESEND_LIMIT = { limit: 5, windowMs: 60 * 60 * 1000 };

export async function shopRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  /** The catalogue; anonymous visitors get the cached bytes, logged-in ones one extra query for `purchased`. */
  // Sends the anonymous catalogue as the bytes it cached (Fastify writes a string as it is): not the typed instance.
  base.get(
    '/api/alltools/',
    documented({
      tags: ['Shop'],
      summary: 'The catalogue',
      description: 'Signed in, each tool also says whether this buyer owns it or has had its trial.',
      response: { 200: catalogueAnswerSchema, ...refusals() },
    }),
    async (request, reply) => {
      const catalogue = await activeCatalogue(ctx);
      const user = await currentUser(ctx, request);
      reply.header('cache-control', 'private, no-cache');
      reply.header('vary', 'cookie');
      if (!user) return reply.type('application/json; charset=utf-8').send(catalogue.anonymousJson);
      const { owned, trialled, trialEnds } = await cachedShopperTools(ctx, user.id);
      return catalogue.tools.map((tool) => {
        if (!owned.has(tool._id) && !trialled.has(tool._id)) return tool;
        const trialEndsAt = owned.has(tool._id) ? undefined : trialEnds.get(tool._id);
        return {
          ...tool,
          purchased: owned.has(tool._id),
          trialStarted: trialled.has(tool._id),
          ...(trialEndsAt ? { trialEndsAt } : {}),
        };
      });
    },
  );

  app.get(
    '/api/my-tools/',
    documented({
      tags: ['Account'],
      summary: 'The tools the buyer owns or is trying, with their installers',
      security: SESSION,
      response: { 200: myToolsAnswerSchema, ...refusals(401) },
    }),
    async (request, reply): Promise<PurchasedTool[]> => {
      const user = await requireUser(ctx, request);
      reply.header('cache-control', 'no-store');
      return purchasedTools(ctx, user.id);
    },
  );

  app.post(
    '/api/send-tool-credentials/',
    documented(
      {
        tags: ['Account'],
        summary: 'Email the license key or sign-in details of a bought tool again',
        security: SESSION,
        body: sendCredentialsSchema,
        response: { 200: statusAnswerSchema, ...refusals(400, 401, 403, 404, 409, 429) },
      },
      CALLER_FIRST,
    ),
    async (request): Promise<StatusResponse> => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { toolId } = request.body;

      await ctx.limiter.consume({
        key: `send-credentials:${user.id}:${toolId}`,
        ...RESEND_LIMIT,
        message: CREDENTIALS_MESSAGES.tooMany,
      });
      const hold = await licenseHold(ctx.db, { userId: user.id, toolId });
      if (hold) {
        throw new DomainError(
          'refused',
          hold === 'suspended' ? LICENSE_MESSAGES.licenseSuspended : LICENSE_MESSAGES.licenseRevoked,
        );
      }
      const outcome = await resendDelivery(ctx, { userId: user.id, toolId }, 'web');
      if (outcome.result !== 'sent') throw notFound(CREDENTIALS_MESSAGES.notPurchased);
      return { status: 'success', message: CREDENTIALS_MESSAGES.sent };
    },
  );

  await downloadRoutes(app, ctx);
}
