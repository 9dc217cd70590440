import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { nupkg, streamOf } from '../../../test/support/release-fixtures';
import { addTool } from '../../../test/support/shop-fixtures';
import { createReleaseSchema } from '../../shared/release-schemas';
import { RELEASE_MESSAGES } from '../../shared/releases';
import { auditLog, tools } from '../db/schema';
import { cliActor } from '../operator/audit';
import {
  addArtifact,
  createRelease,
  editRelease,
  findReleaseByVersion,
  publishRelease,
  removeArtifact,
  yankRelease,
} from './operations';
import { releaseSigner } from './signing';
import { listReleases, publishedArtifacts } from './store';

/** Releases as the operator makes them: semver order, drafts and yanks out of every list, files fixed once out. */
let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'releases-test-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const actor = cliActor('tester');
const draft = (version: string, extra: Record<string, unknown> = {}) =>
  createReleaseSchema.parse({ version, ...extra });

async function withInstaller(toolId: string, version: string, extra: Record<string, unknown> = {}) {
  const release = await createRelease(t.ctx, toolId, draft(version, extra), actor);
  await addArtifact(
    t.ctx,
    release.id,
    {
      platform: 'windows',
      arch: 'x64',
      kind: 'installer',
      fileName: `Setup-${version}.exe`,
      stream: streamOf(randomBytes(64)),
    },
    actor,
  );
  return release;
}

/** The files stored for a release, straight from the storage directory. */
function storedFiles(toolId: string, releaseId: string): string[] {
  const folder = path.join(dataDir, 'files', 'releases', toolId, releaseId);
  return existsSync(folder) ? readdirSync(folder) : [];
}

describe('release order and visibility', () => {
  it('orders by semantic version (1.10.0 after 1.9.0) and lists only published releases of the channel asked', async () => {
    const tool = await addTool(t);
    for (const version of ['1.9.0', '1.10.0', '1.2.0']) {
      const release = await withInstaller(tool.id, version);
      await publishRelease(t.ctx, release.id, actor);
    }
    const beta = await withInstaller(tool.id, '1.11.0-beta.1', { channel: 'beta' });
    await publishRelease(t.ctx, beta.id, actor);
    await withInstaller(tool.id, '2.0.0');
    const yanked = await withInstaller(tool.id, '1.10.1');
    await publishRelease(t.ctx, yanked.id, actor);
    await yankRelease(t.ctx, yanked.id, actor);

    expect(
      (await listReleases(t.ctx.db, tool.id)).map((release) => `${release.version} ${release.state}`),
    ).toEqual([
      '2.0.0 draft',
      '1.11.0-beta.1 published',
      '1.10.1 yanked',
      '1.10.0 published',
      '1.9.0 published',
      '1.2.0 published',
    ]);
    const stable = await publishedArtifacts(t.ctx.db, tool.id, { kind: 'installer', includeBeta: false });
    expect(stable.map((row) => row.release.version)).toEqual(['1.10.0', '1.9.0', '1.2.0']);
    const withBeta = await publishedArtifacts(t.ctx.db, tool.id, {
      kind: 'installer',
      platform: 'windows',
      arch: 'x64',
      includeBeta: true,
    });
    expect(withBeta.map((row) => row.release.version)).toEqual(['1.11.0-beta.1', '1.10.0', '1.9.0', '1.2.0']);
    expect(await publishedArtifacts(t.ctx.db, tool.id, { kind: 'sparkle', includeBeta: true })).toEqual([]);
    expect(
      await publishedArtifacts(t.ctx.db, tool.id, {
        kind: 'installer',
        platform: 'macos',
        includeBeta: true,
      }),
    ).toEqual([]);
  });

  it('refuses a version the tool already has, as semver (v1.1.0 is 1.1.0), and finds a tool by its exact name', async () => {
    const tool = await addTool(t, { name: `Ledger Lite ${randomBytes(3).toString('hex')}` });
    await createRelease(t.ctx, tool.name.toUpperCase(), draft('1.1.0'), actor);
    await expect(createRelease(t.ctx, tool.id, draft('v1.1.0'), actor)).rejects.toThrow(
      `${tool.name} already has release 1.1.0.`,
    );
    expect((await findReleaseByVersion(t.ctx.db, tool.id.slice(0, 8), 'v1.1.0')).version).toBe('1.1.0');
    expect(() => draft('1.1')).toThrow(/not a semantic version/);
  });
});

describe('release files', () => {
  it('hashes and signs each upload, and keeps a published release’s files as they are', async () => {
    const tool = await addTool(t);
    const release = await createRelease(t.ctx, tool.id, draft('1.1.0', { notesMarkdown: '## New' }), actor);
    const bytes = randomBytes(300_000);
    const { artifact } = await addArtifact(
      t.ctx,
      release.id,
      {
        platform: 'macos',
        arch: 'universal',
        kind: 'sparkle',
        fileName: 'Tool-1.1.0.zip',
        stream: streamOf(bytes),
      },
      actor,
    );
    const signer = releaseSigner(t.ctx);
    expect(artifact).toMatchObject({
      size: bytes.byteLength,
      sha1: createHash('sha1').update(bytes).digest('hex'),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      kid: signer.kid,
      velopackType: null,
    });
    expect(
      verify(null, bytes, createPublicKey(signer.publicKey), Buffer.from(artifact.signature, 'base64')),
    ).toBe(true);

    await expect(
      addArtifact(
        t.ctx,
        release.id,
        {
          platform: 'macos',
          arch: 'universal',
          kind: 'sparkle',
          fileName: 'Again.zip',
          stream: streamOf(bytes),
        },
        actor,
      ),
    ).rejects.toThrow(
      'This release already has a sparkle for macos universal (Tool-1.1.0.zip); remove it first.',
    );

    await publishRelease(t.ctx, release.id, actor);
    const extra = {
      platform: 'windows',
      arch: 'x64',
      kind: 'installer',
      fileName: 'Setup.exe',
      stream: streamOf(bytes),
    } as const;
    await expect(addArtifact(t.ctx, release.id, extra, actor)).rejects.toThrow(
      RELEASE_MESSAGES.publishedFilesFixed,
    );
    await expect(removeArtifact(t.ctx, release.id, artifact.id, actor)).rejects.toThrow(
      RELEASE_MESSAGES.publishedFilesFixed,
    );
    await expect(editRelease(t.ctx, release.id, { channel: 'beta' }, actor)).rejects.toThrow(
      RELEASE_MESSAGES.channelFixed,
    );
    const edited = await editRelease(
      t.ctx,
      release.id,
      { notesMarkdown: 'Fixed <script>x</script>', critical: true },
      actor,
    );
    expect(edited).toMatchObject({
      critical: true,
      channel: 'stable',
      notesMarkdown: 'Fixed <script>x</script>',
    });
    await yankRelease(t.ctx, release.id, actor);
    await expect(
      addArtifact(t.ctx, release.id, { ...extra, stream: streamOf(bytes) }, actor),
    ).rejects.toThrow(RELEASE_MESSAGES.yankedFilesFixed);
    expect(storedFiles(tool.id, release.id)).toHaveLength(1);
  });

  it('publishes only with a file, removes a draft’s file from storage, and yanks only what was published', async () => {
    const tool = await addTool(t);
    const release = await createRelease(t.ctx, tool.id, draft('3.0.0'), actor);
    await expect(publishRelease(t.ctx, release.id, actor)).rejects.toThrow(RELEASE_MESSAGES.noArtifacts);
    await expect(yankRelease(t.ctx, release.id, actor)).rejects.toThrow(/draft/);
    const { artifact } = await addArtifact(
      t.ctx,
      release.id,
      {
        platform: 'windows',
        arch: 'arm64',
        kind: 'installer',
        fileName: 'Setup.msi',
        stream: streamOf(randomBytes(10)),
      },
      actor,
    );
    expect(storedFiles(tool.id, release.id)).toHaveLength(1);
    const after = await removeArtifact(t.ctx, release.id, artifact.id, actor);
    expect(after.artifacts).toEqual([]);
    expect(storedFiles(tool.id, release.id)).toEqual([]);

    const actions = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `release:${release.id}`));
    expect(actions.map((row) => [row.action, row.actor])).toEqual([
      ['release.create', 'cli:tester'],
      ['release.upload', 'cli:tester'],
      ['release.remove-file', 'cli:tester'],
    ]);
  });
});

describe('Velopack packages', () => {
  it('takes a package whose .nuspec names the tool’s package id and the release’s version, full or delta', async () => {
    const tool = await addTool(t, { name: 'PDF Toolkit Velo' });
    const release = await createRelease(t.ctx, tool.id, draft('1.1.0'), actor);
    const full = nupkg('PDFToolkitVelo', '1.1.0');
    const upload = (fileName: string, bytes: Buffer) =>
      addArtifact(
        t.ctx,
        release.id,
        { platform: 'windows', arch: 'x64', kind: 'velopack', fileName, stream: streamOf(bytes) },
        actor,
      );
    const { artifact } = await upload('PDFToolkitVelo-1.1.0-full.nupkg', full);
    expect(artifact).toMatchObject({
      velopackType: 'Full',
      sha256: createHash('sha256').update(full).digest('hex'),
    });
    const { artifact: delta } = await upload(
      'PDFToolkitVelo-1.1.0-delta.nupkg',
      nupkg('PDFToolkitVelo', '1.1.0'),
    );
    expect(delta.velopackType).toBe('Delta');
  });

  it('refuses a package of another version or id, or not a package at all, and stores nothing', async () => {
    const tool = await addTool(t, { name: 'Velo Check', packageId: 'PdfToolkit' });
    const release = await createRelease(t.ctx, tool.id, draft('1.1.0'), actor);
    const upload = (fileName: string, bytes: Buffer) =>
      addArtifact(
        t.ctx,
        release.id,
        { platform: 'windows', arch: 'x64', kind: 'velopack', fileName, stream: streamOf(bytes) },
        actor,
      );

    await expect(upload('PdfToolkit-1.1.0-full.nupkg', nupkg('PdfToolkit', '1.2.0'))).rejects.toThrow(
      'This package is PdfToolkit 1.2.0, not PdfToolkit 1.1.0.',
    );
    await expect(upload('PdfToolkit-1.1.0-full.nupkg', nupkg('OtherTool', '1.1.0'))).rejects.toThrow(
      'This package is OtherTool 1.1.0, not PdfToolkit 1.1.0.',
    );
    await expect(upload('PdfToolkit-1.1.0-full.nupkg', randomBytes(100))).rejects.toThrow(
      /not a Velopack package/,
    );
    await expect(upload('PdfToolkit-1.1.0.zip', nupkg('PdfToolkit', '1.1.0'))).rejects.toThrow(
      /-full\.nupkg or -delta\.nupkg/,
    );
    expect(storedFiles(tool.id, release.id)).toEqual([]);
    expect((await listReleases(t.ctx.db, tool.id))[0]?.artifacts).toEqual([]);

    // The default package id follows the name until the operator sets one.
    await t.ctx.db.update(tools).set({ packageId: null }).where(eq(tools.id, tool.id));
    await expect(upload('VeloCheck-1.1.0-full.nupkg', nupkg('VeloCheck', '1.1.0'))).resolves.toBeDefined();
  });
});
