import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_RELEASE_SIGNING_KEY } from '../../../test/support/app';
import { argv } from '../../../test/support/command-line';
import { commandLineProcessEnv } from '../../../test/support/database';
import { runCli } from '../../../test/support/processes';
import { nupkg } from '../../../test/support/release-fixtures';
import { TEST_DATA_SECRET_KEY } from '../../../test/support/settings';
import type { ActivityEntry } from '../../shared/dashboard';
import type { AdminRelease } from '../../shared/releases';

/**
 * `npm run admin -- releases …` as the operator runs it: separate processes on one database (PGlite files in a
 * temporary DATA_DIR, or PostgreSQL), the files read from the operator's working directory.
 */
let dataDir: string;
let env: Record<string, string>;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'admin-releases-'));
  ({ env, drop: dropDatabase } = await commandLineProcessEnv(dataDir, {
    SESSION_SECRET: 'admin-cli-test-session-secret-0123456789abcdef',
    DATA_SECRET_KEY: TEST_DATA_SECRET_KEY,
    RELEASE_SIGNING_KEY: TEST_RELEASE_SIGNING_KEY,
  }));
}, 60_000);

afterAll(async () => {
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

const admin = (...args: string[]) => runCli(args, { cwd: dataDir, env: { ...process.env, ...env } });

async function adminJson<T>(...args: string[]): Promise<T> {
  const run = await admin(...args, '--json');
  expect(run.stderr, `stderr of ${args.join(' ')}`).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** What a refused command prints: exit code 1, nothing on stdout, one line on stderr. */
const refusal = (message: string) => ({ code: 1, stdout: '', stderr: `admin: ${message}\n` });

describe('releases on the command line', () => {
  it('adds a release, uploads signed files, publishes, lists and yanks it, each in the activity log', async () => {
    const tool = await adminJson<{ _id: string }>(
      ...argv`tools add --name ${'PDF Toolkit CLI'} --description ${'Merges PDFs.'} --price-inr 499`,
    );
    const edited = await adminJson<{ packageId: string }>(
      ...argv`tools edit ${tool._id.slice(0, 8)} --package-id PdfToolkit`,
    );
    expect(edited.packageId).toBe('PdfToolkit');

    writeFileSync(path.join(dataDir, 'notes.md'), '## Faster merging\n\n<script>alert(1)</script>');
    const added = await adminJson<AdminRelease>(
      ...argv`releases add ${'PDF Toolkit CLI'} --version 1.1.0 --notes-file notes.md --critical --build 7 --min-macos 12.0 --min-windows 10.0.17763`,
    );
    expect(added).toMatchObject({
      version: '1.1.0',
      state: 'draft',
      channel: 'stable',
      critical: true,
      buildNumber: 7,
      minimumMacosVersion: '12.0',
      minimumWindowsVersion: '10.0.17763',
    });
    const badMinimum = await admin(
      ...argv`releases add ${'PDF Toolkit CLI'} --version 1.2.0 --min-windows 10.0`,
    );
    expect(badMinimum).toEqual(
      refusal('--min-windows "10.0": Write the Windows version as major.minor.build, e.g. 10.0.17763.'),
    );
    const lowBuild = await admin('releases', 'add', 'PDF Toolkit CLI', '--version', '1.2.0', '--build', '7');
    expect(lowBuild.stderr).toMatch(/build number must be above 7/);
    expect(added.notesHtml).toBe('<h2>Faster merging</h2>');

    const mislabelled = writeFile('PdfToolkit-1.1.0-full.nupkg', nupkg('PdfToolkit', '1.2.0'));
    const wrong = await admin(
      ...argv`releases upload ${tool._id} 1.1.0 ${mislabelled} --platform windows --arch x64 --kind velopack`,
    );
    expect(wrong).toEqual(refusal('This package is PdfToolkit 1.2.0, not PdfToolkit 1.1.0.'));

    const installer = randomBytes(20_000);
    const velopackPackage = writeFile('PdfToolkit-1.1.0-full.nupkg', nupkg('PdfToolkit', '1.1.0'));
    const upload = await adminJson<AdminRelease>(
      ...argv`releases upload ${'pdf toolkit cli'} v1.1.0 ${velopackPackage} --platform windows --arch x64 --kind velopack`,
    );
    expect(upload.artifacts).toEqual([expect.objectContaining({ kind: 'velopack', velopackType: 'Full' })]);
    const installerFile = writeFile('PDF Toolkit Setup.exe', installer);
    const text = await admin(
      ...argv`releases upload ${tool._id} 1.1.0 ${installerFile} --platform windows --arch x64 --kind installer`,
    );
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      `Uploaded PDF Toolkit Setup.exe (20 KB, sha256 ${sha256(installer)}) to 1.1.0.`,
    );

    const sparkleSetup = writeFile('PdfToolkit-1.1.0-setup.exe', randomBytes(100));
    const silent = await adminJson<AdminRelease>(
      ...argv`releases upload ${tool._id} 1.1.0 ${sparkleSetup} --platform windows --arch x64 --kind sparkle --installer-args ${'/SILENT /NORESTART'}`,
    );
    expect(silent.artifacts.find((artifact) => artifact.kind === 'sparkle')?.installerArguments).toBe(
      '/SILENT /NORESTART',
    );

    expect((await admin('releases', 'publish', tool._id, '1.1.0')).stdout).toMatch(
      /^Published release 1\.1\.0\./,
    );
    const [listed, ...others] = await adminJson<AdminRelease[]>('releases', 'list', 'PDF Toolkit CLI');
    expect(others).toEqual([]);
    expect(listed).toMatchObject({ version: '1.1.0', state: 'published' });
    const setup = listed?.artifacts.find((artifact) => artifact.kind === 'installer');
    expect(setup).toMatchObject({
      fileName: 'PDF Toolkit Setup.exe',
      size: installer.byteLength,
      sha256: sha256(installer),
    });
    const publicKey = createPublicKey(TEST_RELEASE_SIGNING_KEY);
    expect(verify(null, installer, publicKey, Buffer.from(setup?.signature ?? '', 'base64'))).toBe(true);

    const lateFile = writeFile('Late.dmg', randomBytes(10));
    const late = await admin(
      ...argv`releases upload ${tool._id} 1.1.0 ${lateFile} --platform macos --arch arm64 --kind installer`,
    );
    expect(late).toEqual(refusal('A published release never changes its files.'));
    expect(await admin('releases', 'add', tool._id, '--version', '1.1')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^admin: --version "1\.1": "1\.1" is not a semantic version/),
    });
    expect(
      (await admin(...argv`releases upload ${tool._id} 1.1.0 x --platform linux --arch x64 --kind installer`))
        .stderr,
    ).toBe('admin: --platform "linux": one of windows, macos.\n');

    expect((await admin('releases', 'yank', tool._id, '1.1.0')).stdout).toMatch(/^Yanked release 1\.1\.0\./);
    const activity = await adminJson<ActivityEntry[]>('activity', '--search', 'release.');
    expect(activity.map((entry) => `${entry.action} ${entry.actor}`).sort()).toEqual(
      [
        'release.create',
        'release.upload',
        'release.upload',
        'release.upload',
        'release.publish',
        'release.yank',
      ]
        .map((action) => `${action} cli:${userInfo().username}`)
        .sort(),
    );
  }, 240_000);
});

function writeFile(name: string, bytes: Buffer): string {
  writeFileSync(path.join(dataDir, name), bytes);
  return name;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
