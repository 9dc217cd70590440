import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { eq, max } from 'drizzle-orm';
import { buildZip } from '../../src/server/catalogue/zip';
import type { Database } from '../../src/server/db/index';
import { releaseArtifacts, releases } from '../../src/server/db/schema/releases';
import type { FileStorage } from '../../src/server/storage';
import type {
  ArtifactArch,
  ArtifactKind,
  ArtifactPlatform,
  ReleaseChannel,
  ReleaseState,
  VelopackType,
} from '../../src/shared/releases';

export type ArtifactSpec = {
  platform: ArtifactPlatform;
  arch?: ArtifactArch;
  kind: ArtifactKind;
  fileName: string;
  /** The file's bytes, or a path on disk for files too large to hold (streamed into storage, left unsigned). */
  content: Buffer | { path: string };
  velopackType?: VelopackType;
  installerArguments?: string;
};

export type ReleaseSpec = {
  toolId: string;
  version: string;
  channel?: ReleaseChannel;
  state?: ReleaseState;
  notesMarkdown?: string;
  critical?: boolean;
  /** Default: the tool's next build number. */
  buildNumber?: number;
  minimumMacosVersion?: string;
  minimumWindowsVersion?: string;
  publishedAt?: Date;
  artifacts?: ArtifactSpec[];
};

/** A release signing key of the fixtures' own, for a database no app context signs for (a server process's). */
const fixtureReleaseKey = generateKeyPairSync('ed25519').privateKey;

/** What signs a fixture's files: the server's own signer (releases/signing.ts) has this shape. */
type FixtureSigner = { kid: string; sign(bytes: Uint8Array): string };
const fixtureSigner: FixtureSigner = {
  kid: 'fixture',
  sign: (bytes) => sign(null, bytes, fixtureReleaseKey).toString('base64'),
};

async function digestsOf(
  content: ArtifactSpec['content'],
): Promise<{ size: number; sha1: string; sha256: string }> {
  const sha1 = createHash('sha1');
  const sha256 = createHash('sha256');
  let size = 0;
  const chunks: Iterable<Buffer> | AsyncIterable<Buffer> = Buffer.isBuffer(content)
    ? [content]
    : createReadStream(content.path);
  for await (const chunk of chunks) {
    size += chunk.length;
    sha1.update(chunk);
    sha256.update(chunk);
  }
  return { size, sha1: sha1.digest('hex'), sha256: sha256.digest('hex') };
}

/**
 * A release with its artifacts, written straight into the database and storage (the operator's upload and
 * publish have their own tests), with real digests and a real Ed25519 signature over each in-memory file.
 */
export async function addRelease(
  target: { db: Database; storage: FileStorage },
  spec: ReleaseSpec,
  signer: FixtureSigner = fixtureSigner,
) {
  const state = spec.state ?? 'published';
  const [highest] = await target.db
    .select({ build: max(releases.buildNumber) })
    .from(releases)
    .where(eq(releases.toolId, spec.toolId));
  const [release] = await target.db
    .insert(releases)
    .values({
      toolId: spec.toolId,
      version: spec.version,
      channel: spec.channel ?? 'stable',
      state,
      notesMarkdown: spec.notesMarkdown ?? `Version ${spec.version}.`,
      critical: spec.critical ?? false,
      buildNumber: spec.buildNumber ?? (highest?.build ?? 0) + 1,
      minimumMacosVersion: spec.minimumMacosVersion ?? null,
      minimumWindowsVersion: spec.minimumWindowsVersion ?? null,
      publishedAt: state === 'draft' ? null : (spec.publishedAt ?? new Date()),
      yankedAt: state === 'yanked' ? new Date() : null,
    })
    .returning();
  if (!release) throw new Error('release insert returned no row');
  const artifacts = [];
  for (const file of spec.artifacts ?? []) {
    const storageKey = `releases/${release.id}/${randomUUID()}`;
    if (Buffer.isBuffer(file.content)) await target.storage.put(storageKey, file.content);
    else
      await target.storage.putStream(
        storageKey,
        createReadStream(file.content.path),
        Number.MAX_SAFE_INTEGER,
      );
    const digests = await digestsOf(file.content);
    const signature = Buffer.isBuffer(file.content) ? signer.sign(file.content) : '';
    const [artifact] = await target.db
      .insert(releaseArtifacts)
      .values({
        releaseId: release.id,
        platform: file.platform,
        arch: file.arch ?? 'x64',
        kind: file.kind,
        fileName: file.fileName,
        storageKey,
        ...digests,
        signature,
        kid: signer.kid,
        velopackType: file.kind === 'velopack' ? (file.velopackType ?? 'Full') : null,
        installerArguments: file.installerArguments ?? null,
      })
      .returning();
    if (!artifact) throw new Error('artifact insert returned no row');
    artifacts.push(artifact);
  }
  return { release, artifacts };
}

/**
 * A small but real Velopack package: a zip with `<id>.nuspec` at its root naming the id and version, as
 * `vpk pack` writes it, and a stand-in for the app's files (random, so each package's hashes differ).
 */
export function nupkg(id: string, version: string, options: { channel?: string } = {}): Buffer {
  const nuspec = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd">',
    '  <metadata>',
    `    <id>${id}</id>`,
    `    <title>${id}</title>`,
    `    <version>${version}</version>`,
    '    <authors>Pinkcity Advisors</authors>',
    '    <description>A test package</description>',
    `    <channel>${options.channel ?? 'win'}</channel>`,
    '    <mainExe>App.exe</mainExe>',
    '  </metadata>',
    '</package>',
  ].join('\n');
  return buildZip([
    { name: `${id}.nuspec`, content: nuspec },
    { name: 'lib/app/App.exe', content: randomBytes(2048) },
  ]);
}

/** Bytes as the stream an upload arrives as. */
/** A Windows x64 installer of two bytes, for a release whose file's content does not matter. */
export const windowsInstaller = (fileName = 'Setup.exe'): ArtifactSpec => ({
  platform: 'windows',
  arch: 'x64',
  kind: 'installer',
  fileName,
  content: Buffer.from('MZ'),
});

export const streamOf = (bytes: Uint8Array) => Readable.from([Buffer.from(bytes)]);

/** A Windows x64 installer as the operator uploads one (`addArtifact`'s file): two bytes unless `bytes` are given. */
export const installerUpload = (fileName = 'Setup.exe', bytes: Uint8Array = Buffer.from('MZ')) =>
  ({ platform: 'windows', arch: 'x64', kind: 'installer', fileName, stream: streamOf(bytes) }) as const;

/** The files the updaters read: the installer the update check offers, WinSparkle's, Sparkle's (macOS) and Velopack's. */
export type UpdaterFile = 'installer' | 'winsparkle' | 'sparkle' | 'velopack';

/**
 * A release's files for the updaters `kinds`, in that order, named after `name` and the version (Velopack's after
 * its package id `packageId`), each holding bytes that name the version.
 */
export function updaterFiles(
  name: string,
  version: string,
  kinds: UpdaterFile[],
  packageId = name,
): ArtifactSpec[] {
  const file: Record<UpdaterFile, () => ArtifactSpec> = {
    installer: () => ({
      platform: 'windows',
      kind: 'installer',
      fileName: `${name}-${version}-setup.exe`,
      content: Buffer.from(`installer ${version}`),
    }),
    winsparkle: () => ({
      platform: 'windows',
      kind: 'sparkle',
      fileName: `${name}-${version}-x64.exe`,
      content: Buffer.from(`winsparkle ${version}`),
    }),
    sparkle: () => ({
      platform: 'macos',
      arch: 'universal',
      kind: 'sparkle',
      fileName: `${name}-${version}.zip`,
      content: Buffer.from(`sparkle ${version}`),
    }),
    velopack: () => ({
      platform: 'windows',
      kind: 'velopack',
      fileName: `${packageId}-${version}-full.nupkg`,
      content: nupkg(packageId, version),
    }),
  };
  return kinds.map((kind) => file[kind]());
}
