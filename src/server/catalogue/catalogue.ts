import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { PurchasedTool, Tool, ToolInstaller } from '../../shared/shop';
import type { DbOrTx } from '../db';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { licenses } from '../db/schema/licenses';
import { purchases } from '../db/schema/orders';
import { trials } from '../db/schema/trials';
import type { AppContext } from '../kernel/context';
import { seatsHeldBy, seatsUsedOf } from '../licenses/team-seats';
import { renderNotes } from '../releases/notes';
import { type ArtifactRow, publishedArtifacts, type ReleaseRow } from '../releases/store';
import type { CachedCatalogue, ShopperTools } from './catalogue-cache';
import { type EditionRow, editionsOf, toEditionView } from './editions';

export type ToolRow = typeof tools.$inferSelect;

/**
 * How long one instance trusts its copy of the catalogue. Writes through this module invalidate at once; the TTL
 * is what makes edits by another instance or the admin CLI appear.
 */
const CACHE_TTL_MS = 10_000;

export function toApiTool(row: ToolRow, purchased: boolean, editions: readonly EditionRow[]): Tool {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    device: row.device ?? null,
    price: row.priceInrPaise / 100,
    priceINR: row.priceInrPaise / 100,
    priceUSD: row.priceUsdCents === null ? null : row.priceUsdCents / 100,
    comingSoon: row.comingSoon,
    purchased,
    icon: row.icon,
    trialDays: row.trialDays,
    ...(editions.length > 0 ? { editions: editions.map((edition) => toEditionView(edition, row)) } : {}),
  };
}

async function loadCatalogue(ctx: AppContext): Promise<CachedCatalogue> {
  const rows = await ctx.db
    .select()
    .from(tools)
    .where(eq(tools.active, true))
    .orderBy(asc(tools.sortOrder), asc(tools.name), asc(tools.id));
  const editions = await editionsOf(
    ctx.db,
    rows.map((row) => row.id),
  );
  const list = rows.map((row) => toApiTool(row, false, editions.get(row.id) ?? []));
  return { tools: list, anonymousJson: JSON.stringify(list), loadedAt: performance.now() };
}

/** The active catalogue, from this instance's cache when it is fresh; one load at a time per database. */
export async function activeCatalogue(ctx: AppContext): Promise<CachedCatalogue> {
  const cache = ctx.caches.catalogue;
  if (cache.value && performance.now() - cache.value.loadedAt < CACHE_TTL_MS) return cache.value;
  if (!cache.loading) {
    const entry = cache;
    entry.loading = loadCatalogue(ctx)
      .then((value) => {
        entry.value = value;
        return value;
      })
      .finally(() => {
        entry.loading = undefined;
      });
  }
  return cache.loading as Promise<CachedCatalogue>;
}

/** Call after any write to the tools table, so this instance answers with the new catalogue at once. */

/** Ids of the tools this user owns now (refunded purchases do not count), straight from the database. */
export async function ownedToolIds(db: DbOrTx, userId: string): Promise<Set<string>> {
  const [rows, seats] = await Promise.all([
    db
      .select({ toolId: purchases.toolId })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), isNull(purchases.refundedAt))),
    teamSeatsOf(db, userId),
  ]);
  return new Set([...rows, ...seats].map((row) => row.toolId));
}

/** What My Tools shows of a tool on its card. */
const TOOL_CARD = {
  id: tools.id,
  name: tools.name,
  description: tools.description,
  device: tools.device,
  icon: tools.icon,
};

/** The seats of other people's teams this user holds (decision 051): tools they have without buying them. */
function teamSeatsOf(db: DbOrTx, userId: string) {
  const owner = alias(users, 'team_owner');
  const team = alias(licenses, 'team');
  return db
    .select({
      toolId: purchases.toolId,
      joinedAt: licenses.createdAt,
      ownerName: owner.name,
      ...TOOL_CARD,
    })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .innerJoin(tools, eq(tools.id, purchases.toolId))
    .innerJoin(team, eq(team.id, licenses.teamLicenseId))
    .innerJoin(owner, eq(owner.id, team.holderId))
    .where(and(seatsHeldBy(userId), isNull(purchases.refundedAt)))
    .orderBy(desc(licenses.createdAt));
}

/**
 * Ids of the tools this user has had a free trial of, whatever became of it, and the end of each trial not bought
 * (running or ended) for the catalogue's "Trial: N days left".
 */
async function trialledTools(
  db: DbOrTx,
  userId: string,
): Promise<Pick<ShopperTools, 'trialled' | 'trialEnds'>> {
  const rows = await db
    .select({
      toolId: trials.toolId,
      convertedAt: trials.convertedAt,
      status: licenses.status,
      expiresAt: licenses.expiresAt,
    })
    .from(trials)
    .innerJoin(licenses, eq(licenses.id, trials.licenseId))
    .where(eq(trials.userId, userId));
  const trialEnds = new Map<string, string>();
  for (const row of rows) {
    if (!row.convertedAt && row.status === 'trial' && row.expiresAt)
      trialEnds.set(row.toolId, row.expiresAt.toISOString());
  }
  return { trialled: new Set(rows.map((row) => row.toolId)), trialEnds };
}

/**
 * What the catalogue's `purchased` and `trialStarted` flags are read from: this instance's copy of each user's
 * owned and trialled tools, as short-lived as the session cache. Only for display; paying, downloading,
 * re-sending and starting a trial check the database.
 */
export async function cachedShopperTools(ctx: AppContext, userId: string): Promise<ShopperTools> {
  const cache = ctx.caches.ownedTools;
  const known = cache.get(userId);
  if (known) return known;
  const generation = cache.generation;
  const [owned, trialled] = await Promise.all([ownedToolIds(ctx.db, userId), trialledTools(ctx.db, userId)]);
  const tools = { owned, ...trialled };
  cache.set(userId, tools, generation);
  return tools;
}

/** Call after a purchase or a trial is created or a purchase refunded, once its transaction committed. */
export function forgetOwnedTools(ctx: AppContext, userId: string): void {
  ctx.caches.ownedTools.delete(userId);
}

/** One active tool by id, straight from the database (payments must not act on a stale price). */
export async function findActiveTool(db: DbOrTx, toolId: string): Promise<ToolRow | undefined> {
  const [row] = await db
    .select()
    .from(tools)
    .where(and(eq(tools.id, toolId), eq(tools.active, true)))
    .limit(1);
  return row;
}

/** The free trials a user has not bought (yet), running or ended, for My Tools. */
async function trialTools(
  ctx: AppContext,
  userId: string,
): Promise<Array<Omit<PurchasedTool, 'currentVersion' | 'earlierVersions'>>> {
  const rows = await ctx.db
    .select({
      ...TOOL_CARD,
      startedAt: trials.startedAt,
      expiresAt: licenses.expiresAt,
    })
    .from(trials)
    .innerJoin(tools, eq(tools.id, trials.toolId))
    .innerJoin(licenses, eq(licenses.id, trials.licenseId))
    .where(and(eq(trials.userId, userId), isNull(trials.convertedAt), eq(licenses.status, 'trial')))
    .orderBy(desc(trials.startedAt));
  return rows.map((row) => ({
    _id: row.id,
    name: row.name,
    description: row.description,
    device: row.device ?? null,
    icon: row.icon,
    purchaseDate: null,
    trialEndsAt: (row.expiresAt ?? row.startedAt).toISOString(),
  }));
}

/** GET /api/my-tools/: the tools the user owns now, newest purchase first, then the trials not bought. */
export async function purchasedTools(ctx: AppContext, userId: string): Promise<PurchasedTool[]> {
  const trialled = await trialTools(ctx, userId);
  const [rows, seats] = await Promise.all([
    ctx.db
      .select({
        ...TOOL_CARD,
        purchasedAt: purchases.createdAt,
        licenseId: licenses.id,
        seats: licenses.seats,
      })
      .from(purchases)
      .innerJoin(tools, eq(tools.id, purchases.toolId))
      .leftJoin(licenses, and(eq(licenses.purchaseId, purchases.id), isNull(licenses.teamLicenseId)))
      .where(and(eq(purchases.userId, userId), isNull(purchases.refundedAt)))
      .orderBy(desc(purchases.createdAt)),
    teamSeatsOf(ctx.db, userId),
  ]);
  // A license of more than one seat is a team its buyer manages on My Tools.
  const teamOf = (row: (typeof rows)[number]) =>
    row.licenseId && row.seats && row.seats > 1 ? { licenseId: row.licenseId, seats: row.seats } : null;
  const teams = rows.flatMap((row) => teamOf(row)?.licenseId ?? []);
  const used = await seatsUsedOf(ctx.db, teams, ctx.clock.now());
  const bought = [
    ...rows.map((row) => {
      const team = teamOf(row);
      return {
        _id: row.id,
        name: row.name,
        description: row.description,
        device: row.device ?? null,
        icon: row.icon,
        purchaseDate: row.purchasedAt.toISOString(),
        ...(team ? { team: { ...team, seatsUsed: used.get(team.licenseId) ?? 1 } } : {}),
      };
    }),
    ...seats.map((row) => ({
      _id: row.toolId,
      name: row.name,
      description: row.description,
      device: row.device ?? null,
      icon: row.icon,
      purchaseDate: row.joinedAt.toISOString(),
      teamOwner: { name: row.ownerName },
    })),
  ];
  // A trial whose tool was bought outright after a refund is no longer a trial on My Tools.
  const boughtIds = new Set(bought.map((tool) => tool._id));
  const listed = [...bought, ...trialled.filter((tool) => !boughtIds.has(tool._id))];
  const published = await publishedArtifacts(
    ctx.db,
    listed.map((tool) => tool._id),
    { kind: 'installer', includeBeta: false },
  );
  return listed.map((tool) => ({
    ...tool,
    ...versionsOf(published.filter(({ release }) => release.toolId === tool._id)),
  }));
}

/**
 * A tool's published stable releases that have installers, newest first: the current one with its notes, and the
 * earlier ones. Betas are for the tools' own updaters, not for buyers browsing My Tools.
 */
function versionsOf(
  published: Array<{ release: ReleaseRow; artifact: ArtifactRow }>,
): Pick<PurchasedTool, 'currentVersion' | 'earlierVersions'> {
  const byRelease = new Map<string, { release: ReleaseRow; installers: ToolInstaller[] }>();
  for (const { release, artifact } of published) {
    const entry = byRelease.get(release.id) ?? { release, installers: [] };
    entry.installers.push({
      artifactId: artifact.id,
      platform: artifact.platform,
      arch: artifact.arch,
      fileName: artifact.fileName,
      size: artifact.size,
    });
    byRelease.set(release.id, entry);
  }
  const versions = [...byRelease.values()].map(({ release, installers }) => ({
    release,
    version: {
      version: release.version,
      publishedAt: release.publishedAt?.toISOString() ?? null,
      installers,
    },
  }));
  const [current, ...earlier] = versions;
  return {
    currentVersion: current
      ? {
          ...current.version,
          notesHtml: renderNotes(current.release.notesMarkdown),
          minimumMacosVersion: current.release.minimumMacosVersion,
          minimumWindowsVersion: current.release.minimumWindowsVersion,
        }
      : null,
    earlierVersions: earlier.map((entry) => entry.version),
  };
}
