import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, asc, count, desc, eq, isNull, max } from 'drizzle-orm';
import type { AdminTool, NewTool, ToolChanges } from '../../shared/dashboard';
import { defaultPackageId } from '../../shared/releases';
import { TOOL_FILE_MAX_BYTES, usdPriceProblem } from '../../shared/tool-rules';
import { type UpdatePeriod, updatePeriodProblem } from '../../shared/update-periods';
import type { Tx } from '../db';
import { tools } from '../db/schema/catalogue';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { purchases } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { type Actor, recordAudit } from '../operator/audit';
import { findTool } from '../operator/tool-lookup';
import { isReleaseFile } from '../releases/store';
import type { StoredFile } from '../storage';
import type { ToolRow } from './catalogue';
import { invalidateCatalogue } from './catalogue-cache';

/**
 * The operator's catalogue: listing, adding and changing tools and attaching their download files, for the
 * command line and the dashboard alike. Every change runs in one transaction with the row locked, writes its
 * audit entry in it (whoever asked), and clears this instance's catalogue cache once committed, so the change
 * shows on /utility-tools at once (other instances and a separate command line process see it within the
 * cache's short TTL).
 */

/** A tool as the operator sees it: the dashboard's shape, and what the audit log records. */
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
  licenseModel: tool.licenseModel,
  heartbeatMinutes: tool.heartbeatMinutes,
  trialDays: tool.trialDays,
  updatesMonths: tool.updatesMonths,
  renewalPricePaise: tool.renewalPriceInrPaise,
  renewalPriceCents: tool.renewalPriceUsdCents,
  file:
    tool.fileName && tool.fileSha256 && tool.fileSize !== null
      ? { name: tool.fileName, size: tool.fileSize, sha256: tool.fileSha256 }
      : null,
  packageId: tool.packageId,
  defaultPackageId: defaultPackageId(tool.name),
  updatedAt: tool.updatedAt.toISOString(),
});

/** Only the fields that changed, on each side, so the activity log reads as the change itself. */
function changedFields(before: ToolRow, after: ToolRow) {
  // The dashboard's shape, and where the tool sits (the command line's icon and position).
  const audited = (tool: ToolRow) => ({ ...toAdminTool(tool), icon: tool.icon, sortOrder: tool.sortOrder });
  const was = audited(before);
  const now = audited(after);
  const changed = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const key of Object.keys(now) as Array<keyof typeof now>) {
    if (
      key === 'updatedAt' ||
      key === 'file' ||
      key === 'defaultPackageId' ||
      JSON.stringify(was[key]) === JSON.stringify(now[key])
    )
      continue;
    changed.before[key] = was[key];
    changed.after[key] = now[key];
  }
  return changed;
}

/** The most machines active at once on any one live license of the tool. */
async function mostActiveDevices(tx: Tx, toolId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(licenseActivations)
    .innerJoin(licenses, eq(licenses.id, licenseActivations.licenseId))
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .where(and(eq(purchases.toolId, toolId), isNull(licenseActivations.deactivatedAt)))
    .groupBy(licenseActivations.licenseId)
    .orderBy(desc(count()))
    .limit(1);
  return row?.n ?? 0;
}

/** A lower activation limit may not strand machines that are running the tool now without saying so. */
async function assertLimitFitsDevices(tx: Tx, before: ToolRow, limit: number | undefined): Promise<void> {
  if (limit === undefined || limit >= before.activationLimit) return;
  const active = await mostActiveDevices(tx, before.id);
  if (active > limit) {
    throw new DomainError(
      'refused',
      `${active} devices are active on one of ${before.name}'s licenses, more than a limit of ${limit}: free devices on that license first, or keep the limit at ${active} or more.`,
    );
  }
}

/** The catalogue's columns for the fields a change gives; the ones it leaves out stay as they are. */
function toolColumns(fields: ToolChanges): Partial<typeof tools.$inferInsert> {
  const columns: Partial<typeof tools.$inferInsert> = {
    name: fields.name,
    description: fields.description,
    device: fields.device,
    priceInrPaise: fields.priceINR,
    priceUsdCents: fields.priceUSD,
    comingSoon: fields.comingSoon,
    active: fields.active,
    delivery: fields.delivery,
    activationLimit: fields.activationLimit,
    trialDays: fields.trialDays,
    licenseModel: fields.licenseModel,
    heartbeatMinutes: fields.heartbeatMinutes,
    packageId: fields.packageId,
    updatesMonths: fields.updatesMonths,
    renewalPriceInrPaise: fields.renewalPriceINR,
    renewalPriceUsdCents: fields.renewalPriceUSD,
    icon: fields.icon,
    sortOrder: fields.sortOrder,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

function assertPayable(
  tool: { priceInrPaise: number; priceUsdCents: number | null } & Partial<UpdatePeriod>,
): void {
  const problem =
    usdPriceProblem(tool) ??
    updatePeriodProblem({
      updatesMonths: tool.updatesMonths ?? null,
      renewalPriceInrPaise: tool.renewalPriceInrPaise ?? null,
      renewalPriceUsdCents: tool.renewalPriceUsdCents ?? null,
    });
  if (problem) throw new DomainError('refused', problem);
}

const TOOL_ORDERS = {
  catalogue: [tools.sortOrder, tools.name],
  name: [tools.name],
  updatedAt: [tools.updatedAt],
  priceINR: [tools.priceInrPaise],
};

/** Which tools, in which order: the catalogue's order for the command line, the table's for the dashboard. */
export type ToolQuery = {
  activeOnly?: boolean;
  sort: keyof typeof TOOL_ORDERS;
  dir: 'asc' | 'desc';
  /** A page of the list; without it, every tool. */
  page?: { number: number; size: number };
};

/** THE operator's list of tools, hidden ones too unless asked (and how many there are), for both adapters. */
export async function listTools(
  ctx: AppContext,
  query: ToolQuery,
): Promise<{ rows: ToolRow[]; total: number }> {
  const order = query.dir === 'asc' ? asc : desc;
  const where = query.activeOnly ? eq(tools.active, true) : undefined;
  const rows = ctx.db
    .select()
    .from(tools)
    .where(where)
    .orderBy(...TOOL_ORDERS[query.sort].map((column) => order(column)), order(tools.id))
    .$dynamic();
  const [page, [total]] = await Promise.all([
    query.page ? rows.limit(query.page.size).offset((query.page.number - 1) * query.page.size) : rows,
    ctx.db.select({ n: count() }).from(tools).where(where),
  ]);
  return { rows: page, total: Number(total?.n ?? 0) };
}

/** Adds a tool; without a position it goes after the last one. */
/** What the catalogue's writes touch: the database, the clock for their times, and the catalogue's cache. */
type CatalogueContext = Pick<AppContext, 'db' | 'clock' | 'caches'>;

export async function createTool(ctx: CatalogueContext, tool: NewTool, actor: Actor): Promise<ToolRow> {
  const values = {
    device: null,
    priceUsdCents: null,
    delivery: 'license_key' as const,
    ...toolColumns(tool),
    name: tool.name,
    description: tool.description,
    priceInrPaise: tool.priceINR,
  };
  assertPayable(values);
  const created = await ctx.db.transaction(async (tx) => {
    const [last] = await tx.select({ sortOrder: max(tools.sortOrder) }).from(tools);
    const now = ctx.clock.now();
    const [inserted] = await tx
      .insert(tools)
      .values({
        ...values,
        sortOrder: values.sortOrder ?? (last?.sortOrder ?? 0) + 10,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!inserted) throw new Error('tool insert returned no row');
    await recordAudit(tx, actor, {
      action: 'tool.create',
      target: `tool:${inserted.id}`,
      after: toAdminTool(inserted),
    });
    return inserted;
  });
  invalidateCatalogue(ctx);
  return created;
}

/** Applies changes to one tool and checks that the result is still payable in both currencies. */
export async function updateTool(
  ctx: CatalogueContext,
  typed: string,
  changes: ToolChanges,
  actor: Actor,
): Promise<{ before: ToolRow; after: ToolRow }> {
  const columns = toolColumns(changes);
  const result = await ctx.db.transaction(async (tx) => {
    const before = await findTool(tx, typed, true);
    assertPayable({ ...before, ...columns });
    await assertLimitFitsDevices(tx, before, columns.activationLimit);
    const [after] = await tx
      .update(tools)
      .set({ ...columns, updatedAt: ctx.clock.now() })
      .where(eq(tools.id, before.id))
      .returning();
    if (!after) throw new Error('tool update returned no row');
    await recordAudit(tx, actor, {
      action: 'tool.update',
      target: `tool:${after.id}`,
      ...changedFields(before, after),
    });
    return { before, after };
  });
  invalidateCatalogue(ctx);
  return result;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** A storage key part from a file name: the storage accepts letters, digits, dot, dash and underscore. */
function keyPart(fileName: string): string {
  const cleaned = fileName.replace(/[^a-z0-9._-]+/gi, '-').replace(/^[^a-z0-9]+/i, '');
  return cleaned.slice(-100) || 'download';
}

/**
 * Attaches or replaces a tool's download file, streamed into storage (hashed on the way, at most
 * TOOL_FILE_MAX_BYTES: more fails with FileTooLargeError and stores nothing). A new key for every upload: the old
 * file stays intact until the database points at the new one, and is removed after; download links already sent
 * serve the new file. `removeProblem` says why the old file could not be removed.
 */
export async function attachToolFile(
  ctx: AppContext,
  typed: string,
  file: { name: string; stream: Readable },
  actor: Actor,
): Promise<{ before: ToolRow; after: ToolRow; stored: StoredFile; removeProblem?: string }> {
  // Buyers get this name in Content-Disposition, and PostgreSQL refuses a NUL in text: refused before storing.
  if (CONTROL_CHARACTER.test(file.name)) {
    throw new DomainError(
      'invalid',
      'The file name has control characters; rename the file and upload it again.',
    );
  }
  const { storage } = ctx;
  const tool = await findTool(ctx.db, typed);
  const key = `tools/${tool.id}/${Date.now().toString(36)}${randomBytes(3).toString('hex')}-${keyPart(file.name)}`;
  const stored = await storage.putStream(key, file.stream, TOOL_FILE_MAX_BYTES);
  let result: { before: ToolRow; after: ToolRow };
  try {
    result = await ctx.db.transaction(async (tx) => {
      const before = await findTool(tx, tool.id, true);
      const [after] = await tx
        .update(tools)
        .set({
          fileKey: stored.key,
          fileName: file.name,
          fileSha256: stored.sha256,
          fileSize: stored.size,
          updatedAt: ctx.clock.now(),
        })
        .where(eq(tools.id, before.id))
        .returning();
      if (!after) throw new Error('tool update returned no row');
      await recordAudit(tx, actor, {
        action: 'tool.upload',
        target: `tool:${after.id}`,
        before: toAdminTool(before).file,
        after: toAdminTool(after).file,
      });
      return { before, after };
    });
  } catch (error) {
    await storage.remove(stored.key).catch(() => {});
    throw error;
  }
  invalidateCatalogue(ctx);
  const { before, after } = result;
  let removeProblem: string | undefined;
  // The file may also be a release's installer (release 1.0.0 made from it by the releases migration): a published
  // release never changes its files, so it stays in storage for that release.
  if (before.fileKey && before.fileKey !== stored.key && !(await isReleaseFile(ctx.db, before.fileKey))) {
    await storage.remove(before.fileKey).catch((error: unknown) => {
      removeProblem = (error as Error).message;
    });
  }
  return { before, after, stored, removeProblem };
}
