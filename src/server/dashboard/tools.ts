import path from 'node:path';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { AdminTool, Page, toolInputSchema, toolsQuerySchema } from '../../shared/dashboard';
import type { AdminEdition, EditionChanges, NewEdition } from '../../shared/edition-schemas';
import { addEdition, type EditionRow, editEdition, editionsOf, trialEditionOf } from '../catalogue/editions';
import * as catalogue from '../catalogue/operator';
import type { AppContext } from '../kernel/context';
import type { Actor } from '../operator/audit';
import { findTool } from '../operator/tool-lookup';

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

export async function toolForDashboard(ctx: AppContext, id: string): Promise<AdminTool> {
  return catalogue.toAdminTool(await findTool(ctx.db, id));
}

/** The editor's form, parsed by the route with the catalogue's own tool fields (shared/dashboard.ts). */
type ToolChange = z.output<typeof toolInputSchema>;

/** Whether saving `input` changes what the tool costs (which needs a fresh authenticator code). */
export async function changesPrices(ctx: AppContext, id: string, input: ToolChange): Promise<boolean> {
  const before = await toolForDashboard(ctx, id);
  const changed = <T>(typed: T | undefined, stored: T) => typed !== undefined && typed !== stored;
  return (
    before.pricePaise !== input.priceINR ||
    before.priceCents !== input.priceUSD ||
    changed(input.renewalPriceINR, before.renewalPricePaise) ||
    changed(input.renewalPriceUSD, before.renewalPriceCents)
  );
}

export async function createToolFromForm(
  ctx: AppContext,
  input: ToolChange,
  actor: Actor,
): Promise<AdminTool> {
  return catalogue.toAdminTool(await catalogue.createTool(ctx, input, actor));
}

export async function updateToolFromForm(
  ctx: AppContext,
  id: string,
  input: ToolChange,
  actor: Actor,
): Promise<AdminTool> {
  const { after } = await catalogue.updateTool(ctx, id, input, actor);
  return catalogue.toAdminTool(after);
}

export async function attachToolFileFromForm(
  ctx: AppContext,
  id: string,
  upload: { fileName: string; stream: Readable },
  actor: Actor,
): Promise<AdminTool> {
  const name = path.basename(upload.fileName).slice(0, 200) || 'download';
  const { after } = await catalogue.attachToolFile(ctx, id, { name, stream: upload.stream }, actor);
  return catalogue.toAdminTool(after);
}

const toAdminEdition = (edition: EditionRow, trialEditionId: string | undefined): AdminEdition => ({
  id: edition.id,
  name: edition.name,
  priceInrPaise: edition.priceInrPaise,
  priceUsdCents: edition.priceUsdCents,
  entitlements: edition.entitlements,
  deviceLimit: edition.deviceLimit,
  trial: edition.id === trialEditionId,
});

/** A tool's editions as its page lists them, lowest first, marking the one its trial runs as. */
export async function editionsForDashboard(ctx: AppContext, toolId: string): Promise<AdminEdition[]> {
  const tool = await findTool(ctx.db, toolId);
  const editions = (await editionsOf(ctx.db, [tool.id])).get(tool.id) ?? [];
  const trialEditionId = trialEditionOf(tool, editions)?.id;
  return editions.map((edition) => toAdminEdition(edition, trialEditionId));
}

/**
 * Whether saving `changes` changes what the edition costs (which needs a fresh authenticator code); an edition the
 * tool does not have changes nothing, and the operation then says it is not found.
 */
export async function changesEditionPrices(
  ctx: AppContext,
  toolId: string,
  editionId: string,
  changes: EditionChanges,
): Promise<boolean> {
  const before = (await editionsOf(ctx.db, [toolId]))
    .get(toolId)
    ?.find((edition) => edition.id === editionId);
  if (!before) return false;
  return (
    (changes.priceInrPaise !== undefined && changes.priceInrPaise !== before.priceInrPaise) ||
    (changes.priceUsdCents !== undefined && changes.priceUsdCents !== before.priceUsdCents)
  );
}

/** Adds an edition above the tool's others (audited by the operation); answers the tool's editions now. */
export async function addEditionFromForm(
  ctx: AppContext,
  toolId: string,
  input: NewEdition,
  actor: Actor,
): Promise<AdminEdition[]> {
  const { tool } = await addEdition(ctx, toolId, input, actor);
  return editionsForDashboard(ctx, tool.id);
}

/** Changes an edition (audited by the operation); answers the tool's editions now. */
export async function editEditionFromForm(
  ctx: AppContext,
  toolId: string,
  editionId: string,
  changes: EditionChanges,
  actor: Actor,
): Promise<AdminEdition[]> {
  const { tool } = await editEdition(ctx, toolId, editionId, changes, actor);
  return editionsForDashboard(ctx, tool.id);
}
