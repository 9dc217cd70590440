import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { asc, eq, max } from 'drizzle-orm';
import { TOOL_FILE_MAX_BYTES, usdPriceProblem } from '../../shared/tool-rules';
import type { AppContext } from '../context';
import type { DbOrTx, Tx } from '../db';
import { tools } from '../db/schema';
import { findByTypedId } from '../db/typed-id';
import { DomainError } from '../domain-error';
import type { StoredFile } from '../storage';
import { invalidateCatalogue, type ToolRow } from './catalogue';
import { ensureDefaultCatalogue } from './seed';

/**
 * The operator's catalogue: listing, adding and changing tools and attaching their download files, for the
 * command line and the dashboard alike. Every change runs in one transaction with the row locked, runs the
 * caller's `alsoInTransaction` (the dashboard's audit entry) inside it, and clears this instance's catalogue
 * cache once committed, so the change shows on /utility-tools at once (other instances and a separate command
 * line process see it within the cache's short TTL).
 */

/** Work a caller adds to a change's transaction, given the tool before (null for a new one) and after. */
export type ToolHook = (tx: Tx, change: { before: ToolRow | null; after: ToolRow }) => Promise<void>;

export type ToolChanges = Partial<typeof tools.$inferInsert>;
export type NewTool = Omit<typeof tools.$inferInsert, 'id' | 'sortOrder' | 'createdAt' | 'updatedAt'> & {
  sortOrder?: number;
};

function assertPayable(prices: { priceInrPaise: number; priceUsdCents: number | null }): void {
  const problem = usdPriceProblem(prices);
  if (problem) throw new DomainError('refused', problem);
}

/** A tool by the id the operator typed (or its start); `forUpdate` locks the row for the transaction. */
export function findTool(db: DbOrTx, typed: string, forUpdate = false): Promise<ToolRow> {
  return findByTypedId({
    idColumn: tools.id,
    typed,
    noun: 'tool',
    listCommand: 'tools list',
    select: (where) => {
      const query = db.select().from(tools).where(where).limit(2);
      return forUpdate ? query.for('update') : query;
    },
  });
}

/** Every tool (or only the active ones) in catalogue order, with the default catalogue in place first. */
export async function listTools(ctx: AppContext, options: { activeOnly?: boolean } = {}): Promise<ToolRow[]> {
  await ensureDefaultCatalogue(ctx);
  return ctx.db
    .select()
    .from(tools)
    .where(options.activeOnly ? eq(tools.active, true) : undefined)
    .orderBy(asc(tools.sortOrder), asc(tools.name), asc(tools.id));
}

/** Adds a tool; without a position it goes after the last one. */
export async function createTool(
  ctx: AppContext,
  values: NewTool,
  alsoInTransaction?: ToolHook,
): Promise<ToolRow> {
  assertPayable(values as { priceInrPaise: number; priceUsdCents: number | null });
  await ensureDefaultCatalogue(ctx);
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
    await alsoInTransaction?.(tx, { before: null, after: inserted });
    return inserted;
  });
  invalidateCatalogue(ctx);
  return created;
}

/** Applies changes to one tool and checks that the result is still payable in both currencies. */
export async function updateTool(
  ctx: AppContext,
  typed: string,
  changes: ToolChanges,
  alsoInTransaction?: ToolHook,
): Promise<{ before: ToolRow; after: ToolRow }> {
  await ensureDefaultCatalogue(ctx);
  const result = await ctx.db.transaction(async (tx) => {
    const before = await findTool(tx, typed, true);
    assertPayable({ ...before, ...changes });
    const [after] = await tx
      .update(tools)
      .set({ ...changes, updatedAt: ctx.clock.now() })
      .where(eq(tools.id, before.id))
      .returning();
    if (!after) throw new Error('tool update returned no row');
    await alsoInTransaction?.(tx, { before, after });
    return { before, after };
  });
  invalidateCatalogue(ctx);
  return result;
}

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
  alsoInTransaction?: ToolHook,
): Promise<{ before: ToolRow; after: ToolRow; stored: StoredFile; removeProblem?: string }> {
  await ensureDefaultCatalogue(ctx);
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
      await alsoInTransaction?.(tx, { before, after });
      return { before, after };
    });
  } catch (error) {
    await storage.remove(stored.key).catch(() => {});
    throw error;
  }
  invalidateCatalogue(ctx);
  const { before, after } = result;
  let removeProblem: string | undefined;
  if (before.fileKey && before.fileKey !== stored.key) {
    await storage.remove(before.fileKey).catch((error: unknown) => {
      removeProblem = (error as Error).message;
    });
  }
  return { before, after, stored, removeProblem };
}
