import path from 'node:path';
import type { Readable } from 'node:stream';
import { asc, count, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AdminTool, Page, toolInputSchema, toolsQuerySchema } from '../../shared/dashboard';
import type { AppContext } from '../context';
import { tools } from '../db/schema';
import { notFound } from '../http/errors';
import type { ToolRow } from '../shop/catalogue';
import * as catalogue from '../shop/tools';
import { type Actor, recordAudit } from './audit';

export const toAdminTool = (tool: ToolRow): AdminTool => ({
  id: tool.id,
  name: tool.name,
  description: tool.description,
  device: tool.device,
  pricePaise: tool.priceInrPaise,
  priceCents: tool.priceUsdCents,
  comingSoon: tool.comingSoon,
  active: tool.active,
  delivery: tool.delivery,
  activationLimit: tool.activationLimit,
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

// ── Changes: the catalogue service's, each with its audit entry in the change's transaction ───────────────

export type ToolChange = z.output<typeof toolInputSchema>;

const toColumns = (input: ToolChange) => ({
  name: input.name,
  description: input.description,
  device: input.device === 'none' ? null : input.device,
  priceInrPaise: input.priceINR,
  priceUsdCents: input.priceUSD,
  comingSoon: input.comingSoon,
  active: input.active,
  delivery: input.delivery,
  activationLimit: input.activationLimit,
});

/** Whether saving `input` changes what the tool costs (which needs a fresh authenticator code). */
export async function changesPrices(ctx: AppContext, id: string, input: ToolChange): Promise<boolean> {
  const before = await adminTool(ctx, id);
  return before.pricePaise !== input.priceINR || before.priceCents !== input.priceUSD;
}

export async function createTool(ctx: AppContext, input: ToolChange, actor: Actor): Promise<AdminTool> {
  const created = await catalogue.createTool(ctx, toColumns(input), (tx, { after }) =>
    recordAudit(tx, actor, { action: 'tool.create', target: `tool:${after.id}`, after: toAdminTool(after) }),
  );
  return toAdminTool(created);
}

export async function updateTool(
  ctx: AppContext,
  id: string,
  input: ToolChange,
  actor: Actor,
): Promise<AdminTool> {
  await adminTool(ctx, id);
  const { after } = await catalogue.updateTool(ctx, id, toColumns(input), (tx, change) => {
    const before = toAdminTool(change.before ?? change.after);
    const now = toAdminTool(change.after);
    return recordAudit(tx, actor, {
      action: 'tool.update',
      target: `tool:${id}`,
      before: changedFields(before, now, 'before'),
      after: changedFields(before, now, 'after'),
    });
  });
  return toAdminTool(after);
}

/** Only the fields that changed, so the activity log reads as the change itself. */
function changedFields(
  before: AdminTool,
  after: AdminTool,
  side: 'before' | 'after',
): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(after) as Array<keyof AdminTool>) {
    if (key === 'updatedAt' || key === 'file') continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      changed[key] = (side === 'before' ? before : after)[key];
  }
  return changed;
}

/** Streams a new download file through the catalogue service (the command line's upload), audited. */
export async function attachToolFile(
  ctx: AppContext,
  id: string,
  upload: { fileName: string; stream: Readable },
  actor: Actor,
): Promise<AdminTool> {
  await adminTool(ctx, id);
  const name = path.basename(upload.fileName).slice(0, 200) || 'download';
  const { after } = await catalogue.attachToolFile(ctx, id, { name, stream: upload.stream }, (tx, change) =>
    recordAudit(tx, actor, {
      action: 'tool.upload',
      target: `tool:${id}`,
      before: change.before ? toAdminTool(change.before).file : null,
      after: toAdminTool(change.after).file,
    }),
  );
  return toAdminTool(after);
}
