import type { Readable } from 'node:stream';
import { and, asc, eq, inArray } from 'drizzle-orm';
import semver from 'semver';
import type { ArtifactArch, ArtifactKind, ArtifactPlatform } from '../../shared/releases';
import type { DbOrTx } from '../db';
import { releaseArtifacts, releases } from '../db/schema/releases';
import type { AppContext } from '../kernel/context';
import type { ByteRange } from '../storage';

/** Ids arrive in URLs: anything but a UUID is simply not found, never a database error. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isId = (text: string) => UUID.test(text);

export type ReleaseRow = typeof releases.$inferSelect;
export type ArtifactRow = typeof releaseArtifacts.$inferSelect;
export type ReleaseWithArtifacts = ReleaseRow & { artifacts: ArtifactRow[] };

/** Newest version first, by semantic versioning (1.10.0 before 1.9.0; 1.1.0 before 1.1.0-beta.1). */
export const newestFirst = (a: { version: string }, b: { version: string }) =>
  semver.rcompare(a.version, b.version);

/** Every release of a tool, whatever its state, each with its artifacts, newest version first. */
export async function listReleases(db: DbOrTx, toolId: string): Promise<ReleaseWithArtifacts[]> {
  const rows = await db.select().from(releases).where(eq(releases.toolId, toolId));
  if (rows.length === 0) return [];
  const files = await db
    .select()
    .from(releaseArtifacts)
    .where(
      inArray(
        releaseArtifacts.releaseId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(releaseArtifacts.createdAt));
  return rows
    .map((row) => ({ ...row, artifacts: files.filter((file) => file.releaseId === row.id) }))
    .sort(newestFirst);
}

/** One release with its artifacts, or null. */
export async function findRelease(db: DbOrTx, releaseId: string): Promise<ReleaseWithArtifacts | null> {
  if (!isId(releaseId)) return null;
  const [row] = await db.select().from(releases).where(eq(releases.id, releaseId));
  if (!row) return null;
  const artifacts = await db
    .select()
    .from(releaseArtifacts)
    .where(eq(releaseArtifacts.releaseId, row.id))
    .orderBy(asc(releaseArtifacts.createdAt));
  return { ...row, artifacts };
}

export type ArtifactFilter = {
  kind: ArtifactKind;
  platform?: ArtifactPlatform;
  arch?: ArtifactArch;
  /** Beta releases too (a beta channel sees stable and beta); otherwise stable only. */
  includeBeta: boolean;
};

/**
 * The artifacts of a tool's published releases that match, newest version first: what feeds, the update check and
 * My Tools offer. Drafts and yanked releases are never in it. Several tools' at once (My Tools) in one query.
 */
export async function publishedArtifacts(
  db: DbOrTx,
  toolId: string | readonly string[],
  filter: ArtifactFilter,
): Promise<Array<{ release: ReleaseRow; artifact: ArtifactRow }>> {
  if (typeof toolId !== 'string' && toolId.length === 0) return [];
  const conditions = [
    typeof toolId === 'string' ? eq(releases.toolId, toolId) : inArray(releases.toolId, [...toolId]),
    eq(releases.state, 'published'),
    eq(releaseArtifacts.kind, filter.kind),
  ];
  if (!filter.includeBeta) conditions.push(eq(releases.channel, 'stable'));
  if (filter.platform) conditions.push(eq(releaseArtifacts.platform, filter.platform));
  if (filter.arch) conditions.push(eq(releaseArtifacts.arch, filter.arch));
  const rows = await db
    .select({ release: releases, artifact: releaseArtifacts })
    .from(releaseArtifacts)
    .innerJoin(releases, eq(releases.id, releaseArtifacts.releaseId))
    .where(and(...conditions))
    .orderBy(asc(releaseArtifacts.createdAt));
  return rows.sort((a, b) => newestFirst(a.release, b.release));
}

/** An artifact by id, whatever its release's state (callers decide what a state allows). */
export async function findArtifact(db: DbOrTx, artifactId: string): Promise<ArtifactRow | null> {
  if (!isId(artifactId)) return null;
  const [row] = await db.select().from(releaseArtifacts).where(eq(releaseArtifacts.id, artifactId));
  return row ?? null;
}

/**
 * The stored bytes of an artifact, streamed from the local directory or the bucket (a ranged GetObject), never
 * buffered; null when storage no longer has the file.
 */
export async function openArtifactStream(
  ctx: Pick<AppContext, 'storage'>,
  artifact: Pick<ArtifactRow, 'storageKey'>,
  range?: ByteRange,
): Promise<{ size: number; stream: Readable } | null> {
  return ctx.storage.open(artifact.storageKey, range);
}

/** Whether any release's artifact is the file stored under `storageKey` (then nothing else may remove it). */
export async function isReleaseFile(db: DbOrTx, storageKey: string): Promise<boolean> {
  const [row] = await db
    .select({ id: releaseArtifacts.id })
    .from(releaseArtifacts)
    .where(eq(releaseArtifacts.storageKey, storageKey))
    .limit(1);
  return row !== undefined;
}
