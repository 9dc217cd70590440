import { asc, count, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AdminTool, Page, toolsQuerySchema } from '../../shared/dashboard';
import type { AppContext } from '../context';
import { tools } from '../db/schema';
import { notFound } from '../http/errors';

type ToolRow = typeof tools.$inferSelect;

export const toAdminTool = (tool: ToolRow): AdminTool => ({
  id: tool.id,
  name: tool.name,
  description: tool.description,
  device: tool.device,
  priceINR: tool.priceInrPaise,
  priceUSD: tool.priceUsdCents,
  comingSoon: tool.comingSoon,
  active: tool.active,
  delivery: tool.delivery,
  file:
    tool.fileName && tool.fileSha256 && tool.fileSize !== null
      ? { name: tool.fileName, size: tool.fileSize, sha256: tool.fileSha256 }
      : null,
  updatedAt: tool.updatedAt.toISOString(),
});

const SORT_COLUMNS = { name: tools.name, updatedAt: tools.updatedAt, priceINR: tools.priceInrPaise };

/** Every tool, hidden ones too, as the operator manages them. */
export async function listAdminTools(
  ctx: AppContext,
  query: z.output<typeof toolsQuerySchema>,
): Promise<Page<AdminTool>> {
  const order = query.dir === 'asc' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(tools)
      .orderBy(order(SORT_COLUMNS[query.sort]), order(tools.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(tools),
  ]);
  return {
    items: rows.map(toAdminTool),
    total: Number(total?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function adminTool(ctx: AppContext, id: string): Promise<AdminTool> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('No such tool.');
  const [tool] = await ctx.db.select().from(tools).where(eq(tools.id, id)).limit(1);
  if (!tool) throw notFound('No such tool.');
  return toAdminTool(tool);
}
