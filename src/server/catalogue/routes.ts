import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { catalogueAnswerSchema, myToolsAnswerSchema } from '../../shared/api-schemas';
import type { PurchasedTool } from '../../shared/shop';
import { currentUser, requireUser } from '../auth/session';
import { refusals } from '../http/answers';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { activeCatalogue, cachedShopperTools, purchasedTools } from './catalogue';
import { downloadRoutes } from './downloads';

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

  await downloadRoutes(app, ctx);
}
