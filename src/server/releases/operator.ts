import { createHash, randomBytes } from 'node:crypto';
import { pipeline, type Readable, Transform } from 'node:stream';
import { and, eq, max } from 'drizzle-orm';
import semver from 'semver';
import type { NewRelease, ReleaseChanges, RolloutStart } from '../../shared/release-schemas';
import {
  type AdminRelease,
  type ArtifactArch,
  type ArtifactKind,
  type ArtifactPlatform,
  packageIdOf,
  RELEASE_FILE_MAX_BYTES,
  RELEASE_MESSAGES,
  type ReleaseRollout,
  type VelopackType,
} from '../../shared/releases';
import type { DbOrTx, Tx } from '../db';
import { tools } from '../db/schema/catalogue';
import { releaseArtifacts, releases } from '../db/schema/releases';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { type Actor, recordAudit } from '../operator/audit';
import { findToolByIdOrName } from '../operator/tool-lookup';
import { queueReleaseEvent } from '../webhooks/events';
import { forgetReleases } from './memory';
import { renderNotes } from './notes';
import { NotAPackageError, nuspecIdentity, velopackTypeOf } from './nupkg';
import { type ArtifactRow, findRelease, isId, type ReleaseRow, type ReleaseWithArtifacts } from './store';

/**
 * The operator's release operations (issue 31), for the dashboard and the command line alike. Each takes an Actor
 * and writes its audit row in the transaction that makes the change (decision 033). A release is a draft until
 * published; only a draft takes or loses files, so what an updater verified once never changes under it.
 */

/** A release's staged rollout as the operator sees it (decision 060). */
export const rolloutOf = (release: ReleaseRow): ReleaseRollout => ({
  percent: release.rolloutPercent,
  state: release.rolloutState,
  phasedIntervalSeconds: release.phasedRolloutIntervalSeconds,
  haltIfStuckPercent: release.haltIfStuckPercent,
});

/** A release as the dashboard and `releases list --json` show it, with its notes rendered as buyers see them. */
export function toAdminRelease(release: ReleaseWithArtifacts): AdminRelease {
  return {
    id: release.id,
    toolId: release.toolId,
    version: release.version,
    channel: release.channel,
    state: release.state,
    notesMarkdown: release.notesMarkdown,
    notesHtml: renderNotes(release.notesMarkdown),
    buildNumber: release.buildNumber,
    minimumMacosVersion: release.minimumMacosVersion,
    minimumWindowsVersion: release.minimumWindowsVersion,
    critical: release.critical,
    createdAt: release.createdAt.toISOString(),
    publishedAt: release.publishedAt?.toISOString() ?? null,
    yankedAt: release.yankedAt?.toISOString() ?? null,
    rollout: rolloutOf(release),
    artifacts: release.artifacts.map((artifact) => ({
      id: artifact.id,
      platform: artifact.platform,
      arch: artifact.arch,
      kind: artifact.kind,
      fileName: artifact.fileName,
      size: artifact.size,
      sha1: artifact.sha1,
      sha256: artifact.sha256,
      signature: artifact.signature,
      kid: artifact.kid,
      velopackType: artifact.velopackType,
      installerArguments: artifact.installerArguments,
      createdAt: artifact.createdAt.toISOString(),
    })),
  };
}

/** What the audit log keeps of a release: enough to read the change, not the notes' whole text. */
export const auditView = (release: ReleaseRow) => ({
  toolId: release.toolId,
  version: release.version,
  channel: release.channel,
  state: release.state,
  critical: release.critical,
  buildNumber: release.buildNumber,
  minimumMacosVersion: release.minimumMacosVersion,
  minimumWindowsVersion: release.minimumWindowsVersion,
  notesLength: release.notesMarkdown.length,
  rollout: rolloutOf(release),
});

const auditFile = (artifact: ArtifactRow) => ({
  fileName: artifact.fileName,
  platform: artifact.platform,
  arch: artifact.arch,
  kind: artifact.kind,
  size: artifact.size,
  sha256: artifact.sha256,
  installerArguments: artifact.installerArguments,
});

export async function lockRelease(tx: Tx, releaseId: string): Promise<ReleaseRow> {
  const [row] = isId(releaseId)
    ? await tx.select().from(releases).where(eq(releases.id, releaseId)).for('update')
    : [];
  if (!row) throw new DomainError('not_found', 'No such release.');
  return row;
}

export async function releaseOrNotFound(db: DbOrTx, releaseId: string): Promise<ReleaseWithArtifacts> {
  const release = await findRelease(db, releaseId);
  if (!release) throw new DomainError('not_found', 'No such release.');
  return release;
}

/** A release of a tool by its version as the operator types it ("1.1.0", "v1.1.0"), compared as semver. */
export async function findReleaseByVersion(
  db: DbOrTx,
  typedTool: string,
  typedVersion: string,
): Promise<ReleaseWithArtifacts> {
  const tool = await findToolByIdOrName(db, typedTool);
  const version = semver.valid(typedVersion.trim());
  if (!version) throw new DomainError('invalid', `"${typedVersion}" is not a semantic version, e.g. 1.1.0.`);
  const rows = await db.select().from(releases).where(eq(releases.toolId, tool.id));
  const row = rows.find((candidate) => semver.eq(candidate.version, version));
  if (!row) throw new DomainError('not_found', `${tool.name} has no release ${version}.`);
  return releaseOrNotFound(db, row.id);
}

/**
 * The build number of a tool's new release: the one the operator gave, which must be above every build number
 * the tool has (Sparkle orders releases by it), or the next integer. The tool's row is locked by the caller.
 */
async function nextBuildNumber(
  tx: Tx,
  tool: { id: string; name: string },
  given: number | null,
): Promise<number> {
  const [row] = await tx
    .select({ highest: max(releases.buildNumber) })
    .from(releases)
    .where(eq(releases.toolId, tool.id));
  const highest = row?.highest ?? 0;
  if (given === null) return highest + 1;
  if (given <= highest) {
    throw new DomainError(
      'invalid',
      `The build number must be above ${highest}, ${tool.name}'s highest so far (Sparkle installs only a higher build): use ${highest + 1} or more.`,
    );
  }
  return given;
}

/** A new draft release of a tool; its version must be new to the tool (as semver: 1.1.0 and v1.1.0 are one). */
export async function createRelease(
  ctx: AppContext,
  typedTool: string,
  input: NewRelease,
  actor: Actor,
): Promise<ReleaseWithArtifacts> {
  const release = await ctx.db.transaction(async (tx) => {
    const tool = await findToolByIdOrName(tx, typedTool, true);
    const existing = await tx
      .select({ version: releases.version })
      .from(releases)
      .where(eq(releases.toolId, tool.id));
    if (existing.some((row) => semver.eq(row.version, input.version))) {
      throw new DomainError('refused', `${tool.name} already has release ${input.version}.`);
    }
    const buildNumber = await nextBuildNumber(tx, tool, input.buildNumber ?? null);
    const [row] = await tx
      .insert(releases)
      .values({
        toolId: tool.id,
        version: input.version,
        channel: input.channel,
        notesMarkdown: input.notesMarkdown,
        buildNumber,
        minimumMacosVersion: input.minimumMacosVersion ?? null,
        minimumWindowsVersion: input.minimumWindowsVersion ?? null,
        critical: input.critical,
        createdAt: ctx.clock.now(),
      })
      .returning();
    if (!row) throw new Error('release insert returned no row');
    await recordAudit(tx, actor, {
      action: 'release.create',
      target: `release:${row.id}`,
      after: auditView(row),
    });
    return row;
  });
  forgetReleases(ctx);
  return { ...release, artifacts: [] };
}

/** Changes a locked release and writes the audit row of the change in the same transaction. */
async function updateAudited(
  tx: Tx,
  actor: Actor,
  before: ReleaseRow,
  changes: Partial<typeof releases.$inferInsert>,
  action: 'release.edit' | 'release.publish' | 'release.yank',
): Promise<void> {
  const [after] = await tx.update(releases).set(changes).where(eq(releases.id, before.id)).returning();
  if (!after) throw new Error('release update returned no row');
  await recordAudit(tx, actor, {
    action,
    target: `release:${after.id}`,
    before: auditView(before),
    after: auditView(after),
  });
}

/** Notes, minimum OS version and the critical flag at any time; the channel only while the release is a draft. */
export async function editRelease(
  ctx: AppContext,
  releaseId: string,
  changes: ReleaseChanges,
  actor: Actor,
): Promise<ReleaseWithArtifacts> {
  await ctx.db.transaction(async (tx) => {
    const before = await lockRelease(tx, releaseId);
    if (changes.channel !== undefined && changes.channel !== before.channel && before.state !== 'draft') {
      throw new DomainError('refused', RELEASE_MESSAGES.channelFixed);
    }
    await updateAudited(tx, actor, before, changes, 'release.edit');
  });
  forgetReleases(ctx);
  return releaseOrNotFound(ctx.db, releaseId);
}

function assertFilesCanChange(release: ReleaseRow): void {
  if (release.state === 'published') throw new DomainError('refused', RELEASE_MESSAGES.publishedFilesFixed);
  if (release.state === 'yanked') throw new DomainError('refused', RELEASE_MESSAGES.yankedFilesFixed);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** An artifact's name is what updaters download it as (Velopack: a path under the feed): plain, one segment. */
function assertFileName(fileName: string): void {
  if (
    fileName === '' ||
    fileName.length > 200 ||
    /[/\\]/.test(fileName) ||
    CONTROL_CHARACTER.test(fileName)
  ) {
    throw new DomainError(
      'invalid',
      'The file name must be 1 to 200 characters without slashes or control characters; rename the file.',
    );
  }
}

export type ArtifactUpload = {
  platform: ArtifactPlatform;
  arch: ArtifactArch;
  kind: ArtifactKind;
  fileName: string;
  /** WinSparkle's installer arguments: a Windows sparkle file only. */
  installerArguments?: string | null;
  stream: Readable;
};

/** What a file's platform, architecture and kind allow, checked before a byte is stored. */
function assertUploadFits(upload: ArtifactUpload): void {
  if (upload.arch === 'x86' && upload.platform !== 'windows') {
    throw new DomainError(
      'invalid',
      'x86 is a Windows architecture; a macOS file is x64, arm64 or universal.',
    );
  }
  if (upload.installerArguments && !(upload.kind === 'sparkle' && upload.platform === 'windows')) {
    throw new DomainError('invalid', RELEASE_MESSAGES.installerArgumentsOnlyWindowsSparkle);
  }
}

/** Velopack's full or delta from the name `vpk pack` gives; anything else is refused before a byte is stored. */
function velopackTypeFor(upload: ArtifactUpload): VelopackType | null {
  if (upload.kind !== 'velopack') return null;
  const type = velopackTypeOf(upload.fileName);
  if (!type) {
    throw new DomainError(
      'invalid',
      'A Velopack package is named as vpk pack names it: <PackageId>-<version>-full.nupkg or -delta.nupkg.',
    );
  }
  return type;
}

/** One installer and one Sparkle archive per platform and architecture, and one full and one delta package. */
function slotTaken(artifacts: ArtifactRow[], upload: ArtifactUpload, velopackType: VelopackType | null) {
  return artifacts.find(
    (artifact) =>
      artifact.kind === upload.kind &&
      artifact.platform === upload.platform &&
      artifact.arch === upload.arch &&
      artifact.velopackType === velopackType,
  );
}

function assertSlotFree(artifacts: ArtifactRow[], upload: ArtifactUpload, velopackType: VelopackType | null) {
  // Velopack downloads a package by its FileName from one folder: two packages of one name cannot both be served.
  const sameName =
    upload.kind === 'velopack' &&
    artifacts.find((artifact) => artifact.kind === 'velopack' && artifact.fileName === upload.fileName);
  if (sameName) {
    throw new DomainError(
      'refused',
      `This release already has a Velopack package named ${upload.fileName} (${sameName.platform} ${sameName.arch}); ` +
        'pack each architecture on its own channel (vpk pack --channel win-arm64) so the names differ.',
    );
  }
  const taken = slotTaken(artifacts, upload, velopackType);
  if (taken) {
    const what = velopackType ? `${velopackType.toLowerCase()} Velopack package` : upload.kind;
    throw new DomainError(
      'refused',
      `This release already has a ${what} for ${upload.platform} ${upload.arch} (${taken.fileName}); remove it first.`,
    );
  }
}

/** The storage accepts letters, digits, dot, dash and underscore in a key. */
const keyPart = (fileName: string) =>
  fileName
    .replace(/[^a-z0-9._-]+/gi, '-')
    .replace(/^[^a-z0-9]+/i, '')
    .slice(-100) || 'file';

/** Counts SHA-1 over what streams to storage (the storage itself measures size and SHA-256). */
function sha1Tap(): { through: Transform; digest: () => string } {
  const hash = createHash('sha1');
  const through = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { through, digest: () => hash.digest('hex') };
}

/**
 * Signing reads a stored file whole into memory (Ed25519 signs the message itself, no prehash; decision 034), so
 * uploads are signed one at a time in this process: memory holds at most one file, whatever the operators do.
 */
let signingQueue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const result = signingQueue.then(work, work);
  signingQueue = result.catch(() => {});
  return result;
}

type Signed = { signature: string; kid: string; identity?: { id: string; version: string } };

/** Reads the stored file back once: checks it is what was streamed, signs it, and reads a package's identity. */
function signStoredFile(
  ctx: AppContext,
  stored: { key: string; sha256: string },
  kind: ArtifactKind,
): Promise<Signed> {
  return oneAtATime(async () => {
    const bytes = await ctx.storage.read(stored.key);
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== stored.sha256) {
      throw new Error(`stored release file ${stored.key} does not read back as it was written`);
    }
    const signer = ctx.releaseSigning;
    const signed: Signed = { signature: signer.sign(bytes), kid: signer.kid };
    if (kind === 'velopack') {
      try {
        signed.identity = await nuspecIdentity(bytes);
      } catch (error) {
        if (error instanceof NotAPackageError) throw new DomainError('invalid', error.message);
        throw error;
      }
    }
    return signed;
  });
}

/** A Velopack package must be this tool's package id at this release's version, or updaters would be misled. */
function assertPackageMatches(
  identity: { id: string; version: string },
  expected: { packageId: string; version: string },
): void {
  const version = semver.valid(identity.version);
  if (identity.id !== expected.packageId || !version || !semver.eq(version, expected.version)) {
    throw new DomainError(
      'invalid',
      `This package is ${identity.id} ${identity.version}, not ${expected.packageId} ${expected.version}.`,
    );
  }
}

/**
 * Adds a file to a draft release: streamed into storage while its size, SHA-1 and SHA-256 are computed, then read
 * back once to be signed (and, for a Velopack package, to check the id and version in its .nuspec). Anything
 * refused after storing removes the stored file again: a refused upload leaves nothing behind.
 */
export async function addArtifact(
  ctx: AppContext,
  releaseId: string,
  upload: ArtifactUpload,
  actor: Actor,
): Promise<{ release: ReleaseWithArtifacts; artifact: ArtifactRow }> {
  assertFileName(upload.fileName);
  assertUploadFits(upload);
  const velopackType = velopackTypeFor(upload);
  const release = await releaseOrNotFound(ctx.db, releaseId);
  assertFilesCanChange(release);
  assertSlotFree(release.artifacts, upload, velopackType);
  const [tool] = await ctx.db.select().from(tools).where(eq(tools.id, release.toolId));
  if (!tool) throw new DomainError('not_found', 'No such release.');

  const key = `releases/${tool.id}/${release.id}/${Date.now().toString(36)}${randomBytes(3).toString('hex')}-${keyPart(upload.fileName)}`;
  const sha1 = sha1Tap();
  const stored = await ctx.storage.putStream(
    key,
    pipeline(upload.stream, sha1.through, () => {}),
    RELEASE_FILE_MAX_BYTES,
  );
  try {
    const signed = await signStoredFile(ctx, stored, upload.kind);
    if (signed.identity) {
      assertPackageMatches(signed.identity, { packageId: packageIdOf(tool), version: release.version });
    }
    const artifact = await ctx.db.transaction(async (tx) => {
      const locked = await lockRelease(tx, release.id);
      assertFilesCanChange(locked);
      const current = await tx
        .select()
        .from(releaseArtifacts)
        .where(eq(releaseArtifacts.releaseId, locked.id));
      assertSlotFree(current, upload, velopackType);
      const [row] = await tx
        .insert(releaseArtifacts)
        .values({
          releaseId: locked.id,
          platform: upload.platform,
          arch: upload.arch,
          kind: upload.kind,
          fileName: upload.fileName,
          storageKey: stored.key,
          size: stored.size,
          sha1: sha1.digest(),
          sha256: stored.sha256,
          signature: signed.signature,
          kid: signed.kid,
          velopackType,
          installerArguments: upload.installerArguments ?? null,
          createdAt: ctx.clock.now(),
        })
        .returning();
      if (!row) throw new Error('artifact insert returned no row');
      await recordAudit(tx, actor, {
        action: 'release.upload',
        target: `release:${locked.id}`,
        after: { version: locked.version, ...auditFile(row) },
      });
      return row;
    });
    forgetReleases(ctx);
    return { release: await releaseOrNotFound(ctx.db, release.id), artifact };
  } catch (error) {
    await ctx.storage.remove(stored.key).catch(() => {});
    throw error;
  }
}

/** Takes a file off a draft release (and out of storage); a published release keeps its files. */
export async function removeArtifact(
  ctx: AppContext,
  releaseId: string,
  artifactId: string,
  actor: Actor,
): Promise<ReleaseWithArtifacts> {
  const removed = await ctx.db.transaction(async (tx) => {
    const release = await lockRelease(tx, releaseId);
    assertFilesCanChange(release);
    const [artifact] = isId(artifactId)
      ? await tx
          .select()
          .from(releaseArtifacts)
          .where(and(eq(releaseArtifacts.id, artifactId), eq(releaseArtifacts.releaseId, release.id)))
      : [];
    if (!artifact) throw new DomainError('not_found', 'This release has no such file.');
    await tx
      .delete(releaseArtifacts)
      .where(and(eq(releaseArtifacts.id, artifact.id), eq(releaseArtifacts.releaseId, release.id)));
    await recordAudit(tx, actor, {
      action: 'release.remove-file',
      target: `release:${release.id}`,
      before: { version: release.version, ...auditFile(artifact) },
    });
    return artifact;
  });
  forgetReleases(ctx);
  await ctx.storage.remove(removed.storageKey).catch(() => {});
  return releaseOrNotFound(ctx.db, releaseId);
}

/** A Velopack delta is applied to the full package of its platform and architecture, which must come with it. */
function assertDeltasHaveFulls(files: ArtifactRow[]): void {
  const packages = files.filter((file) => file.kind === 'velopack');
  for (const delta of packages.filter((file) => file.velopackType === 'Delta')) {
    const full = packages.some(
      (file) => file.velopackType === 'Full' && file.platform === delta.platform && file.arch === delta.arch,
    );
    if (!full) {
      throw new DomainError(
        'refused',
        `${delta.fileName} is a delta for ${delta.platform} ${delta.arch}, and this release has no full package for ` +
          `${delta.platform} ${delta.arch}: upload the full package too (clients without the previous version need it).`,
      );
    }
  }
}

/**
 * Makes a draft with at least one file visible to feeds, the update check and My Tools: to every machine, or staged
 * to a share of them (`rollout.rolloutPercent` below 100, decision 060).
 */
export async function publishRelease(
  ctx: AppContext,
  releaseId: string,
  actor: Actor,
  rollout: RolloutStart = { rolloutPercent: 100 },
): Promise<ReleaseWithArtifacts> {
  await ctx.db.transaction(async (tx) => {
    const before = await lockRelease(tx, releaseId);
    if (before.state === 'published')
      throw new DomainError('refused', `Release ${before.version} is already published.`);
    if (before.state === 'yanked') {
      throw new DomainError(
        'refused',
        `Release ${before.version} was yanked; publish a new version instead.`,
      );
    }
    const files = await tx.select().from(releaseArtifacts).where(eq(releaseArtifacts.releaseId, before.id));
    if (files.length === 0) throw new DomainError('refused', RELEASE_MESSAGES.noArtifacts);
    assertDeltasHaveFulls(files);
    await updateAudited(
      tx,
      actor,
      before,
      {
        state: 'published',
        publishedAt: ctx.clock.now(),
        rolloutPercent: rollout.rolloutPercent,
        rolloutState: rollout.rolloutPercent === 100 ? 'complete' : 'rolling',
        phasedRolloutIntervalSeconds: rollout.phasedInterval ?? null,
        haltIfStuckPercent: rollout.haltIfStuckPercent ?? null,
      },
      'release.publish',
    );
    await queueReleaseEvent(tx, before.id, ctx.clock.now());
  });
  forgetReleases(ctx);
  return releaseOrNotFound(ctx.db, releaseId);
}

/** Hides a published release from every feed, the update check and My Tools at once; its files stay stored. */
export async function yankRelease(
  ctx: AppContext,
  releaseId: string,
  actor: Actor,
): Promise<ReleaseWithArtifacts> {
  await ctx.db.transaction(async (tx) => {
    const before = await lockRelease(tx, releaseId);
    if (before.state === 'draft') {
      throw new DomainError(
        'refused',
        `Release ${before.version} is a draft: it is in no feed, so there is nothing to yank.`,
      );
    }
    if (before.state === 'yanked')
      throw new DomainError('refused', `Release ${before.version} is already yanked.`);
    await updateAudited(tx, actor, before, { state: 'yanked', yankedAt: ctx.clock.now() }, 'release.yank');
  });
  forgetReleases(ctx);
  return releaseOrNotFound(ctx.db, releaseId);
}
