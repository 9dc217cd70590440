import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { LICENSE_MESSAGES } from '../../shared/licenses';
import type { PurchasedTool, StatusResponse } from '../../shared/shop';
import { sendCredentialsSchema } from '../../shared/shop-schemas';
import { currentUser, requireUser } from '../auth/session';
import type { AppContext } from '../context';
import { licenses, orders, purchases, tools } from '../db/schema';
import { AppError, notFound, parseInput } from '../http/errors';
import { activeCatalogue, cachedOwnedToolIds } from './catalogue';
import { queueDeliveryEmail } from './delivery';
import { downloadRoutes } from './downloads';

export const CREDENTIALS_MESSAGES = {
  sent: 'Credentials sent to your email!',
  notPurchased: 'You have not purchased this tool.',
  tooMany:
    'You have asked for your credentials several times already. Please check your inbox or try again later.',
} as const;

const RESEND_LIMIT = { limit: 5, windowMs: 60 * 60 * 1000 };

export async function shopRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  /** The catalogue; anonymous visitors get the cached bytes, logged-in ones one extra query for `purchased`. */
  app.get('/api/alltools/', async (request, reply) => {
    const catalogue = await activeCatalogue(ctx);
    const user = await currentUser(ctx, request);
    reply.header('cache-control', 'private, no-cache');
    reply.header('vary', 'cookie');
    if (!user) return reply.type('application/json; charset=utf-8').send(catalogue.anonymousJson);
    const owned = await cachedOwnedToolIds(ctx, user.id);
    return catalogue.tools.map((tool) => (owned.has(tool._id) ? { ...tool, purchased: true } : tool));
  });

  app.get('/api/my-tools/', async (request, reply): Promise<PurchasedTool[]> => {
    const user = await requireUser(ctx, request);
    reply.header('cache-control', 'no-store');
    const rows = await ctx.db
      .select({
        id: tools.id,
        name: tools.name,
        description: tools.description,
        device: tools.device,
        icon: tools.icon,
        purchasedAt: purchases.createdAt,
      })
      .from(purchases)
      .innerJoin(tools, eq(tools.id, purchases.toolId))
      .where(and(eq(purchases.userId, user.id), isNull(purchases.refundedAt)))
      .orderBy(desc(purchases.createdAt));
    return rows.map((row) => ({
      _id: row.id,
      name: row.name,
      description: row.description,
      device: row.device ?? null,
      icon: row.icon,
      purchaseDate: row.purchasedAt.toISOString(),
    }));
  });

  app.post('/api/send-tool-credentials/', async (request): Promise<StatusResponse> => {
    const user = await requireUser(ctx, request);
    const { toolId } = parseInput(sendCredentialsSchema, request.body);

    const [owned] = await ctx.db
      .select({ purchase: purchases, order: orders, tool: tools, license: licenses })
      .from(purchases)
      .innerJoin(orders, eq(orders.id, purchases.orderId))
      .innerJoin(tools, eq(tools.id, purchases.toolId))
      .innerJoin(licenses, eq(licenses.purchaseId, purchases.id))
      .where(and(eq(purchases.userId, user.id), eq(purchases.toolId, toolId), isNull(purchases.refundedAt)))
      .limit(1);
    if (!owned) throw notFound(CREDENTIALS_MESSAGES.notPurchased);
    if (owned.license.status !== 'active') {
      throw new AppError(
        409,
        `license_${owned.license.status}`,
        owned.license.status === 'suspended'
          ? LICENSE_MESSAGES.licenseSuspended
          : LICENSE_MESSAGES.licenseRevoked,
      );
    }

    await ctx.limiter.consume({
      key: `send-credentials:${user.id}:${toolId}`,
      ...RESEND_LIMIT,
      message: CREDENTIALS_MESSAGES.tooMany,
    });
    await ctx.db.transaction((tx) =>
      queueDeliveryEmail(ctx, tx, {
        occasion: 'resend',
        user,
        purchaseId: owned.purchase.id,
        order: owned.order,
        tool: owned.tool,
        license: owned.license,
      }),
    );
    return { status: 'success', message: CREDENTIALS_MESSAGES.sent };
  });

  await downloadRoutes(app, ctx);
}
