import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { installerUpload, nupkg, streamOf } from '../../../test/support/release-fixtures';
import { addTool } from '../../../test/support/shop-fixtures';
import { createReleaseSchema } from '../../shared/release-schemas';
import { RELEASE_MESSAGES } from '../../shared/releases';
import { tools } from '../db/schema/catalogue';
import { auditLog } from '../db/schema/operator';
import { cliActor } from '../operator/audit';
import {
  addArtifact,
  createRelease,
  editRelease,
  findReleaseByVersion,
  publishRelease,
  removeArtifact,
  yankRelease,
} from './operator';
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
  await addArtifact(t.ctx, release.id, installerUpload(`Setup-${version}.exe`, randomBytes(64)), actor);
  return release;
}

/** A Velopack package uploaded to a Windows release, as the operator adds one. */
const addVelopack = (releaseId: string, fileName: string, bytes: Buffer, arch: 'x64' | 'arm64' = 'x64') =>
  addArtifact(
    t.ctx,
    releaseId,
    { platform: 'windows', arch, kind: 'velopack', fileName, stream: streamOf(bytes) },
    actor,
  );

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
    const signer = t.ctx.releaseSigning;
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
    const extra = installerUpload('Setup.exe', bytes);
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
    const upload = (fileName: string, bytes: Buffer) => addVelopack(release.id, fileName, bytes);
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
    const upload = (fileName: string, bytes: Buffer) => addVelopack(release.id, fileName, bytes);

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

describe('issue 51: build numbers, per-platform minimums, architectures', () => {
  it('numbers releases upward per tool, takes a given higher build and refuses one that is not above every earlier', async () => {
    const tool = await addTool(t, { name: 'Build Counter' });
    const first = await createRelease(t.ctx, tool.id, draft('1.0.0'), actor);
    const second = await createRelease(t.ctx, tool.id, draft('1.1.0'), actor);
    expect([first.buildNumber, second.buildNumber]).toEqual([1, 2]);
    const given = await createRelease(t.ctx, tool.id, draft('1.2.0', { buildNumber: 40 }), actor);
    expect(given.buildNumber).toBe(40);
    await expect(createRelease(t.ctx, tool.id, draft('1.3.0', { buildNumber: 40 }), actor)).rejects.toThrow(
      /build number must be above 40.*use 41 or more/,
    );
    // Another tool counts on its own.
    const other = await addTool(t, { name: 'Build Counter Two' });
    expect((await createRelease(t.ctx, other.id, draft('5.0.0'), actor)).buildNumber).toBe(1);
    expect((await createRelease(t.ctx, tool.id, draft('1.3.0'), actor)).buildNumber).toBe(41);
  });

  it('validates each platform’s minimum in the form its updater reads, and keeps them apart', async () => {
    const parsed = createReleaseSchema.safeParse({ version: '1.0.0', minimumWindowsVersion: '12.0' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['minimumWindowsVersion'],
      message: 'Write the Windows version as major.minor.build, e.g. 10.0.17763.',
    });
    const mac = createReleaseSchema.safeParse({ version: '1.0.0', minimumMacosVersion: '10.0.17763.1' });
    expect(mac.error?.issues[0]?.path).toEqual(['minimumMacosVersion']);
    const tool = await addTool(t, { name: 'Minimums Apart' });
    const release = await createRelease(
      t.ctx,
      tool.id,
      draft('1.0.0', { minimumMacosVersion: '12.0', minimumWindowsVersion: '10.0.17763' }),
      actor,
    );
    expect(release).toMatchObject({ minimumMacosVersion: '12.0', minimumWindowsVersion: '10.0.17763' });
    const edited = await editRelease(t.ctx, release.id, { minimumMacosVersion: null }, actor);
    expect(edited).toMatchObject({ minimumMacosVersion: null, minimumWindowsVersion: '10.0.17763' });
  });

  it('refuses a second Velopack package with a file name already in the release, and stores nothing of it', async () => {
    const tool = await addTool(t, { name: 'Twin Arch' });
    const release = await createRelease(t.ctx, tool.id, draft('1.1.0'), actor);
    const upload = (arch: 'x64' | 'arm64', fileName: string) =>
      addVelopack(release.id, fileName, nupkg('TwinArch', '1.1.0'), arch);
    await upload('x64', 'TwinArch-1.1.0-full.nupkg');
    await expect(upload('arm64', 'TwinArch-1.1.0-full.nupkg')).rejects.toThrow(
      /already has a Velopack package named TwinArch-1\.1\.0-full\.nupkg \(windows x64\).*--channel win-arm64/,
    );
    expect(storedFiles(tool.id, release.id)).toHaveLength(1);
    await upload('arm64', 'TwinArch-1.1.0-win-arm64-full.nupkg');
    expect(storedFiles(tool.id, release.id)).toHaveLength(2);
  });

  it('publishes a Velopack delta only with a full package of the same platform and architecture', async () => {
    const tool = await addTool(t, { name: 'Delta Only' });
    const release = await createRelease(t.ctx, tool.id, draft('1.1.0'), actor);
    const upload = (arch: 'x64' | 'arm64', fileName: string) =>
      addVelopack(release.id, fileName, nupkg('DeltaOnly', '1.1.0'), arch);
    await upload('arm64', 'DeltaOnly-1.1.0-win-arm64-delta.nupkg');
    await upload('x64', 'DeltaOnly-1.1.0-full.nupkg');
    await expect(publishRelease(t.ctx, release.id, actor)).rejects.toThrow(
      'DeltaOnly-1.1.0-win-arm64-delta.nupkg is a delta for windows arm64, and this release has no full package for windows arm64',
    );
    expect((await listReleases(t.ctx.db, tool.id))[0]?.state).toBe('draft');
    await upload('arm64', 'DeltaOnly-1.1.0-win-arm64-full.nupkg');
    expect((await publishRelease(t.ctx, release.id, actor)).state).toBe('published');
  });

  it('takes installer arguments for a Windows sparkle file only, and x86 for Windows only', async () => {
    const tool = await addTool(t, { name: 'Silent Setup' });
    const release = await createRelease(t.ctx, tool.id, draft('1.0.0'), actor);
    const file = (extra: Record<string, unknown>) => ({
      platform: 'windows' as const,
      arch: 'x64' as const,
      kind: 'sparkle' as const,
      fileName: 'Setup.exe',
      stream: streamOf(randomBytes(32)),
      ...extra,
    });
    await expect(
      addArtifact(t.ctx, release.id, file({ kind: 'installer', installerArguments: '/SILENT' }), actor),
    ).rejects.toThrow(RELEASE_MESSAGES.installerArgumentsOnlyWindowsSparkle);
    await expect(
      addArtifact(t.ctx, release.id, file({ platform: 'macos', arch: 'x86', fileName: 'App.zip' }), actor),
    ).rejects.toThrow(/x86 is a Windows architecture/);
    const { artifact } = await addArtifact(t.ctx, release.id, file({ installerArguments: '/SILENT' }), actor);
    expect(artifact.installerArguments).toBe('/SILENT');
    const [audit] = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `release:${release.id}`))
      .orderBy(desc(auditLog.createdAt))
      .limit(1);
    expect(audit?.after).toMatchObject({ installerArguments: '/SILENT', fileName: 'Setup.exe' });
  });
});
