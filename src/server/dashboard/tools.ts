import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { asc, count, desc, eq, max } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type AdminTool,
  type Page,
  TOOL_FILE_MAX_BYTES,
  type toolInputSchema,
  type toolsQuerySchema,
} from '../../shared/dashboard';
import type { AppContext } from '../context';
import { tools } from '../db/schema';
import { notFound } from '../http/errors';
import { invalidateCatalogue } from '../shop/catalogue';
import { type Actor, recordAudit } from './audit';

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

// ── Changes (each audited in its own transaction) ───────────────────────────────────────────────────────────

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
});

/** Whether saving `input` changes what the tool costs (which needs a fresh authenticator code). */
export async function changesPrices(ctx: AppContext, id: string | null, input: ToolChange): Promise<boolean> {
  if (id === null) return true;
  const before = await adminTool(ctx, id);
  return before.priceINR !== input.priceINR || before.priceUSD !== input.priceUSD;
}

export async function createTool(ctx: AppContext, input: ToolChange, actor: Actor): Promise<AdminTool> {
  const created = await ctx.db.transaction(async (tx) => {
    const [last] = await tx.select({ value: max(tools.sortOrder) }).from(tools);
    const [row] = await tx
      .insert(tools)
      .values({
        ...toColumns(input),
        sortOrder: (last?.value ?? 0) + 1,
        createdAt: ctx.clock.now(),
        updatedAt: ctx.clock.now(),
      })
      .returning();
    if (!row) throw new Error('tool insert returned no row');
    await recordAudit(tx, actor, {
      action: 'tool.create',
      target: `tool:${row.id}`,
      after: toAdminTool(row),
    });
    return row;
  });
  invalidateCatalogue(ctx);
  return toAdminTool(created);
}

export async function updateTool(
  ctx: AppContext,
  id: string,
  input: ToolChange,
  actor: Actor,
): Promise<AdminTool> {
  await adminTool(ctx, id);
  const updated = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(tools).where(eq(tools.id, id)).for('update').limit(1);
    if (!before) throw notFound('No such tool.');
    const [after] = await tx
      .update(tools)
      .set({ ...toColumns(input), updatedAt: ctx.clock.now() })
      .where(eq(tools.id, id))
      .returning();
    if (!after) throw new Error('tool update returned no row');
    await recordAudit(tx, actor, {
      action: 'tool.update',
      target: `tool:${id}`,
      before: changedFields(toAdminTool(before), toAdminTool(after), 'before'),
      after: changedFields(toAdminTool(before), toAdminTool(after), 'after'),
    });
    return after;
  });
  invalidateCatalogue(ctx);
  return toAdminTool(updated);
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

const keyPart = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 80) || 'file';

/**
 * Streams a new download file into storage (at most TOOL_FILE_MAX_BYTES, hashed on the way), then points the
 * tool at it; the previous file is removed once nothing refers to it. Download links already sent serve the new file.
 */
export async function attachToolFile(
  ctx: AppContext,
  id: string,
  upload: { fileName: string; stream: Readable },
  actor: Actor,
): Promise<AdminTool> {
  await adminTool(ctx, id);
  const fileName = path.basename(upload.fileName).slice(0, 200) || 'download';
  const key = `tools/${id}/${Date.now().toString(36)}${randomBytes(3).toString('hex')}-${keyPart(fileName)}`;
  const stored = await ctx.storage.putStream(key, upload.stream, TOOL_FILE_MAX_BYTES);
  let before: ToolRow;
  let after: ToolRow;
  try {
    ({ before, after } = await ctx.db.transaction(async (tx) => {
      const [old] = await tx.select().from(tools).where(eq(tools.id, id)).for('update').limit(1);
      if (!old) throw notFound('No such tool.');
      const [row] = await tx
        .update(tools)
        .set({
          fileKey: stored.key,
          fileName,
          fileSha256: stored.sha256,
          fileSize: stored.size,
          updatedAt: ctx.clock.now(),
        })
        .where(eq(tools.id, id))
        .returning();
      if (!row) throw new Error('tool update returned no row');
      await recordAudit(tx, actor, {
        action: 'tool.upload',
        target: `tool:${id}`,
        before: toAdminTool(old).file,
        after: toAdminTool(row).file,
      });
      return { before: old, after: row };
    }));
  } catch (error) {
    await ctx.storage.remove(stored.key).catch(() => {});
    throw error;
  }
  if (before.fileKey && before.fileKey !== stored.key)
    await ctx.storage.remove(before.fileKey).catch(() => {});
  invalidateCatalogue(ctx);
  return toAdminTool(after);
}
