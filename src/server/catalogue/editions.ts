import { and, asc, eq, inArray, max, sql } from 'drizzle-orm';
import type { EditionChanges, NewEdition } from '../../shared/edition-schemas';
import type { ToolEditionView } from '../../shared/editions';
import { usdPriceProblem } from '../../shared/tool-rules';
import { type UpdatePeriod, updatePeriodProblem } from '../../shared/update-periods';
import type { DbOrTx } from '../db';
import { toolEditions, tools } from '../db/schema/catalogue';
import { findByTypedId } from '../db/typed-id';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { type Actor, recordAudit } from '../operator/audit';
import { findToolByIdOrName } from '../operator/tool-lookup';
import { invalidateCatalogue } from './catalogue-cache';

type ToolRow = typeof tools.$inferSelect;

/**
 * A tool's editions (decision 056): what the catalogue shows, what an order of an edition costs, and the operator's
 * changes to them (the command line and the dashboard alike), each audited in its transaction.
 */

export type EditionRow = typeof toolEditions.$inferSelect;

/** Machines one license of the edition runs on at a time: its own limit, or the tool's. */
export const deviceLimitOf = (
  edition: Pick<EditionRow, 'deviceLimit'>,
  tool: Pick<ToolRow, 'activationLimit'>,
) => edition.deviceLimit ?? tool.activationLimit;

export const toEditionView = (
  edition: EditionRow,
  tool: Pick<ToolRow, 'activationLimit'>,
): ToolEditionView => ({
  id: edition.id,
  name: edition.name,
  priceInr: edition.priceInrPaise / 100,
  priceUsd: edition.priceUsdCents === null ? null : edition.priceUsdCents / 100,
  entitlements: edition.entitlements,
  deviceLimit: deviceLimitOf(edition, tool),
});

/** Each tool's editions, lowest first; a tool without editions has none in the map. */
export async function editionsOf(db: DbOrTx, toolIds: readonly string[]): Promise<Map<string, EditionRow[]>> {
  const byTool = new Map<string, EditionRow[]>();
  if (toolIds.length === 0) return byTool;
  const rows = await db
    .select()
    .from(toolEditions)
    .where(inArray(toolEditions.toolId, [...toolIds]))
    .orderBy(asc(toolEditions.toolId), asc(toolEditions.position));
  for (const row of rows) byTool.set(row.toolId, [...(byTool.get(row.toolId) ?? []), row]);
  return byTool;
}

/** The edition a trial of the tool runs as: the one the operator chose, else the top one. */
export function trialEditionOf(tool: Pick<ToolRow, 'trialEditionId'>, editions: readonly EditionRow[]) {
  return editions.find((edition) => edition.id === tool.trialEditionId) ?? editions.at(-1);
}

/** An edition of the tool by its name (case aside) or the id the operator typed (or its start). */
export async function findEdition(
  db: DbOrTx,
  tool: Pick<ToolRow, 'id' | 'name'>,
  typed: string,
  forUpdate = false,
): Promise<EditionRow> {
  const named = db
    .select()
    .from(toolEditions)
    .where(
      and(eq(toolEditions.toolId, tool.id), sql`lower(${toolEditions.name}) = ${typed.trim().toLowerCase()}`),
    );
  const [byName] = forUpdate ? await named.for('update') : await named;
  if (byName) return byName;
  return findByTypedId({
    idColumn: toolEditions.id,
    typed,
    noun: `edition of ${tool.name}`,
    listCommand: `tools editions list "${tool.name}"`,
    select: (where) => {
      const query = db
        .select()
        .from(toolEditions)
        .where(and(where, eq(toolEditions.toolId, tool.id)))
        .limit(2);
      return forUpdate ? query.for('update') : query;
    },
  });
}

function assertPayable(
  edition: Pick<EditionRow, 'name' | 'priceInrPaise' | 'priceUsdCents'> & Partial<UpdatePeriod>,
): void {
  const problem =
    usdPriceProblem(edition) ??
    updatePeriodProblem({
      updatesMonths: edition.updatesMonths ?? null,
      renewalPriceInrPaise: edition.renewalPriceInrPaise ?? null,
      renewalPriceUsdCents: edition.renewalPriceUsdCents ?? null,
    });
  if (problem) throw new DomainError('refused', `${edition.name}: ${problem}`);
}

/** What the audit log records of an edition. */
const audited = (edition: EditionRow) => ({
  name: edition.name,
  position: edition.position,
  priceInrPaise: edition.priceInrPaise,
  priceUsdCents: edition.priceUsdCents,
  entitlements: edition.entitlements,
  deviceLimit: edition.deviceLimit,
  updatesMonths: edition.updatesMonths,
  renewalPriceInrPaise: edition.renewalPriceInrPaise,
  renewalPriceUsdCents: edition.renewalPriceUsdCents,
});

type CatalogueContext = Pick<AppContext, 'db' | 'clock' | 'caches'>;

/** Adds an edition above the tool's existing ones (Standard first, then Pro). */
export async function addEdition(
  ctx: CatalogueContext,
  toolTyped: string,
  input: NewEdition,
  actor: Actor,
): Promise<{ tool: ToolRow; edition: EditionRow }> {
  assertPayable(input);
  const result = await ctx.db.transaction(async (tx) => {
    const tool = await findToolByIdOrName(tx, toolTyped, true);
    const [clash] = await tx
      .select({ id: toolEditions.id })
      .from(toolEditions)
      .where(
        and(eq(toolEditions.toolId, tool.id), sql`lower(${toolEditions.name}) = ${input.name.toLowerCase()}`),
      );
    if (clash) throw new DomainError('conflict', `${tool.name} already has an edition named ${input.name}.`);
    const [top] = await tx
      .select({ position: max(toolEditions.position) })
      .from(toolEditions)
      .where(eq(toolEditions.toolId, tool.id));
    const now = ctx.clock.now();
    const [edition] = await tx
      .insert(toolEditions)
      .values({
        ...input,
        toolId: tool.id,
        position: (top?.position ?? 0) + 1,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!edition) throw new Error('edition insert returned no row');
    await recordAudit(tx, actor, {
      action: 'tool.edition-add',
      target: `tool:${tool.id}`,
      after: audited(edition),
    });
    return { tool, edition };
  });
  invalidateCatalogue(ctx);
  return result;
}

/** Changes an edition; with `trial`, a trial of the tool runs as it from now on. */
export async function editEdition(
  ctx: CatalogueContext,
  toolTyped: string,
  editionTyped: string,
  changes: EditionChanges,
  actor: Actor,
): Promise<{ tool: ToolRow; before: EditionRow; after: EditionRow }> {
  const result = await ctx.db.transaction(async (tx) => {
    const tool = await findToolByIdOrName(tx, toolTyped, true);
    const before = await findEdition(tx, tool, editionTyped, true);
    const { trial, ...columns } = changes;
    const next = {
      ...before,
      ...Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined)),
    };
    assertPayable(next);
    if (columns.name && columns.name.toLowerCase() !== before.name.toLowerCase()) {
      const [clash] = await tx
        .select({ id: toolEditions.id })
        .from(toolEditions)
        .where(
          and(
            eq(toolEditions.toolId, tool.id),
            sql`lower(${toolEditions.name}) = ${columns.name.toLowerCase()}`,
          ),
        );
      if (clash)
        throw new DomainError('conflict', `${tool.name} already has an edition named ${columns.name}.`);
    }
    const [after] = await tx
      .update(toolEditions)
      .set({ ...columns, updatedAt: ctx.clock.now() })
      .where(eq(toolEditions.id, before.id))
      .returning();
    if (!after) throw new Error('edition update returned no row');
    if (trial)
      await tx
        .update(tools)
        .set({ trialEditionId: after.id, updatedAt: ctx.clock.now() })
        .where(eq(tools.id, tool.id));
    await recordAudit(tx, actor, {
      action: 'tool.edition-edit',
      target: `tool:${tool.id}`,
      before: {
        edition: before.name,
        ...audited(before),
        ...(trial ? { trialEditionId: tool.trialEditionId } : {}),
      },
      after: { edition: after.name, ...audited(after), ...(trial ? { trialEditionId: after.id } : {}) },
    });
    return { tool, before, after };
  });
  invalidateCatalogue(ctx);
  return result;
}
