import type { DatabaseHandle } from '../db';
import { type ChannelFollower, type FollowerSlot, followChanges } from '../db/notifications';
import type { AppContext } from '../kernel/context';
import { TtlCache } from '../kernel/ttl-cache';
import { type ArtifactFilter, type ArtifactRow, publishedArtifacts, type ReleaseRow } from './store';

/**
 * What one instance remembers of a tool's published releases: the one query behind every feed and update check
 * (issue 69, decision 066). On a release day every installed copy asks for its feed within hours, each under its
 * own token, so no CDN can answer for us; what each machine is offered is still worked out per machine
 * (releases/offer.ts), but from releases read once rather than once a request.
 *
 * Remembered only while this instance hears every release change as it commits (migration 0033's triggers on the
 * channel below), and forgotten on each; without that (starting up, the listening connection lost, the tests' apps)
 * every request reads the database, as before, so a publish or a halted rollout never shows late anywhere.
 */
export const RELEASE_CHANGES_CHANNEL = 'release_changes';
/** Bounds how old a remembered answer may grow even while every change is heard. */
const FOLLOWED_TTL_MS = 5 * 60 * 1000;
/** Tools × kinds × platforms × channels: a few per tool. */
const MAX_ENTRIES = 2000;

type Published = ReadonlyArray<{ release: ReleaseRow; artifact: ArtifactRow }>;
type Remembered = { toolId: string; published: Published };

export type ReleaseMemory = { publishedReleases: TtlCache<string, Remembered> };

declare module '../kernel/context' {
  interface AppContext {
    /** Whether this instance hears release changes as they commit (set by `followReleaseChanges` in main.ts). */
    releaseChanges: FollowerSlot;
  }
  interface AppCaches extends ReleaseMemory {}
}

export function createReleaseMemory(): ReleaseMemory {
  return { publishedReleases: new TtlCache(FOLLOWED_TTL_MS, MAX_ENTRIES) };
}

/** `publishedArtifacts` of one tool, from memory while this instance hears every release change. */
export async function publishedFor(
  ctx: Pick<AppContext, 'db' | 'caches' | 'releaseChanges'>,
  toolId: string,
  filter: ArtifactFilter,
): Promise<Published> {
  const cache = ctx.caches.publishedReleases;
  const following = ctx.releaseChanges.follower?.healthy() ?? false;
  const key = `${toolId} ${filter.kind} ${filter.platform ?? ''} ${filter.arch ?? ''} ${filter.includeBeta}`;
  if (following) {
    const remembered = cache.get(key);
    if (remembered) return remembered.published;
  }
  const generation = cache.generation;
  // Frozen: every request shares it, and none may reorder it for the next.
  const published = Object.freeze(await publishedArtifacts(ctx.db, toolId, filter));
  if (following) cache.set(key, { toolId, published }, generation);
  return published;
}

/**
 * Drops what this instance remembers of a tool's releases, or of every tool's. The release operations call it once
 * their transaction has committed; the change feed calls it for changes made elsewhere.
 */
export function forgetReleases(ctx: { caches: ReleaseMemory }, toolId?: string): void {
  const cache = ctx.caches.publishedReleases;
  if (toolId) cache.deleteWhere((remembered) => remembered.toolId === toolId);
  else cache.clear();
}

/**
 * Makes this instance drop a tool's remembered releases as soon as a change to them commits, on any instance. Listening
 * again after a lost connection forgets everything, since what was announced meanwhile is unknown.
 */
export async function followReleaseChanges(
  ctx: AppContext,
  database: Pick<DatabaseHandle, 'follow'>,
  onProblem?: (error: Error) => void,
): Promise<ChannelFollower> {
  return followChanges(
    database,
    RELEASE_CHANGES_CHANNEL,
    ctx.releaseChanges,
    (toolId) => forgetReleases(ctx, toolId),
    onProblem,
  );
}
