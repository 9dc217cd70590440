import path from 'node:path';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { AdminTool, Page, toolInputSchema, toolsQuerySchema } from '../../shared/dashboard';
import type { AppContext } from '../kernel/context';
import type { Actor } from '../operator/audit';
import { findTool } from '../operator/tool-lookup';
import * as catalogue from '../shop/operator';

/** Every tool, hidden ones too, a page at a time in the operator's order. */
export async function listAdminTools(
  ctx: AppContext,
  query: z.output<typeof toolsQuerySchema>,
): Promise<Page<AdminTool>> {
  const { rows, total } = await catalogue.listTools(ctx, {
    sort: query.sort,
    dir: query.dir,
    page: { number: query.page, size: query.pageSize },
  });
  return { items: rows.map(catalogue.toAdminTool), total, page: query.page, pageSize: query.pageSize };
}

export async function adminTool(ctx: AppContext, id: string): Promise<AdminTool> {
  return catalogue.toAdminTool(await findTool(ctx.db, id));
}

// ── The editor's form, as the catalogue's operations take it ───────────────────────────────────────────────

type ToolChange = z.output<typeof toolInputSchema>;

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
  ...(input.trialDays === undefined ? {} : { trialDays: input.trialDays }),
  ...(input.licenseModel === undefined ? {} : { licenseModel: input.licenseModel }),
  ...(input.heartbeatMinutes === undefined ? {} : { heartbeatMinutes: input.heartbeatMinutes }),
  packageId: input.packageId,
});

/** Whether saving `input` changes what the tool costs (which needs a fresh authenticator code). */
export async function changesPrices(ctx: AppContext, id: string, input: ToolChange): Promise<boolean> {
  const before = await adminTool(ctx, id);
  return before.pricePaise !== input.priceINR || before.priceCents !== input.priceUSD;
}

export async function createTool(ctx: AppContext, input: ToolChange, actor: Actor): Promise<AdminTool> {
  return catalogue.toAdminTool(await catalogue.createTool(ctx, toColumns(input), actor));
}

export async function updateTool(
  ctx: AppContext,
  id: string,
  input: ToolChange,
  actor: Actor,
): Promise<AdminTool> {
  const { after } = await catalogue.updateTool(ctx, id, toColumns(input), actor);
  return catalogue.toAdminTool(after);
}

export async function attachToolFile(
  ctx: AppContext,
  id: string,
  upload: { fileName: string; stream: Readable },
  actor: Actor,
): Promise<AdminTool> {
  const name = path.basename(upload.fileName).slice(0, 200) || 'download';
  const { after } = await catalogue.attachToolFile(ctx, id, { name, stream: upload.stream }, actor);
  return catalogue.toAdminTool(after);
}
