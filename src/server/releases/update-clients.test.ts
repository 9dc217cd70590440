import { beforeAll, describe, expect, it } from 'vitest';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import {
  activateOverHttp,
  type LicensedPurchase,
  licenseApiOverHttp,
  licensedPurchase,
} from '../../../test/support/license-fixtures';
import { type ArtifactSpec, addRelease } from '../../../test/support/release-fixtures';
import { addTool } from '../../../test/support/shop-fixtures';
import * as sparkle from '../../../test/support/sparkle';
import * as winsparkle from '../../../test/support/winsparkle';
import type { UpdateCheckAnswer } from '../../shared/licenses';
import type { ArtifactArch, ArtifactPlatform } from '../../shared/releases';
import type { ArtifactRow } from './store';

/**
 * Issue 51: the appcast read the way the update clients read it — by ports of WinSparkle's and Sparkle's own code
 * (test/support/winsparkle.ts, test/support/sparkle.ts) — from the URLs docs/updates.md gives an app.
 *
 * One tool, as an operator would ship it: 1.0.0; a critical 1.1.0 needing macOS 12.0 and Windows 10.0.17763, with
 * x64 and arm64 Windows installers (x64 run /SILENT) and a universal plus an arm64-only Mac archive; betas
 * 1.2.0-beta.1 and 1.2.0-beta.2; a draft 1.3.0; and later the final 1.2.0.
 */

const t = shopTestAppForFile();
let purchase: LicensedPurchase;
let appcastUrl: string;
let machine: string;
/** Each release's build number, as the fixture assigned it (the next per tool). */
const builds = new Map<string, number>();
const fileBuild = (version: string) => builds.get(version) ?? Number.NaN;
/** The artifact of each `version platform arch`, to tell which file a client picked. */
const files = new Map<string, ArtifactRow>();
const fileOf = (key: string) => {
  const file = files.get(key);
  if (!file) throw new Error(`no file ${key}`);
  return file;
};
/** The release file an enclosure URL points at, as `version platform arch`. */
const whichFile = (url: string | undefined) =>
  [...files.entries()].find(([, file]) => url?.includes(`/files/${file.id}/`))?.[0];

const archive = (
  platform: ArtifactPlatform,
  arch: ArtifactArch,
  version: string,
  extra: Partial<ArtifactSpec> = {},
) =>
  ({
    platform,
    arch,
    kind: 'sparkle',
    fileName:
      platform === 'windows' ? `Clients-${version}-${arch}-setup.exe` : `Clients-${version}-${arch}.zip`,
    content: Buffer.from(`${version} for ${platform} ${arch} ${'x'.repeat(64)}`),
    ...extra,
  }) satisfies ArtifactSpec;

async function release(version: string, spec: Record<string, unknown>, artifacts: ArtifactSpec[]) {
  const made = await addRelease(
    t.ctx,
    { toolId: purchase.toolId, version, artifacts, ...spec },
    t.ctx.releaseSigning,
  );
  for (const file of made.artifacts) files.set(`${version} ${file.platform} ${file.arch}`, file);
  builds.set(version, made.release.buildNumber);
  return made;
}

const text = async (url: string) => {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return response.text();
};

beforeAll(async () => {
  const tool = await addTool(t, { name: 'Update Clients Tool' });
  purchase = await licensedPurchase(t.ctx, { toolId: tool.id });
  const everywhere = (version: string) => [
    archive('windows', 'x64', version),
    archive('windows', 'arm64', version),
    archive('macos', 'universal', version),
  ];
  await release('1.0.0', {}, everywhere('1.0.0'));
  await release(
    '1.1.0',
    { critical: true, minimumMacosVersion: '12.0', minimumWindowsVersion: '10.0.17763' },
    [
      archive('windows', 'arm64', '1.1.0'),
      archive('windows', 'x64', '1.1.0', { installerArguments: '/SILENT' }),
      archive('macos', 'arm64', '1.1.0'),
      archive('macos', 'universal', '1.1.0'),
    ],
  );
  await release('1.2.0-beta.1', { channel: 'beta' }, everywhere('1.2.0-beta.1'));
  await release('1.2.0-beta.2', { channel: 'beta' }, everywhere('1.2.0-beta.2'));
  await release('1.3.0', { state: 'draft' }, everywhere('1.3.0'));
  ({ machine, appcastUrl } = await activateOverHttp(t.baseUrl, purchase));
});

describe('WinSparkle (ported src/appcast.cpp and src/updatechecker.cpp) on the documented URL', () => {
  it('a stable x64 app on 1.0.0 on Windows 10.0.19045 is offered 1.1.0 with its x64 installer, never a beta, never arm64', async () => {
    const xml = await text(appcastUrl);
    const client = { arch: 'x64', windows: '10.0.19045', appVersion: '1.0.0' } as const;
    const offered = winsparkle.checkForUpdate(xml, client);
    expect(offered).toMatchObject({ version: '1.1.0', criticalUpdate: true });
    expect(whichFile(offered?.enclosure.url)).toBe('1.1.0 windows x64');
    expect(offered?.enclosure).toMatchObject({
      os: 'windows-x64',
      installerArguments: '/SILENT',
      edSignature: fileOf('1.1.0 windows x64').signature,
    });
    // Everything WinSparkle keeps of the feed: no beta at all, and only x64 files.
    const kept = winsparkle.loadAppcast(xml, client);
    expect(kept.map((item) => item.version)).toEqual(['1.1.0', '1.0.0']);
    expect(kept.map((item) => whichFile(item.enclosure.url))).toEqual([
      '1.1.0 windows x64',
      '1.0.0 windows x64',
    ]);
    // On 1.1.0 there is nothing newer for a stable app, although two betas are published.
    expect(winsparkle.checkForUpdate(xml, { ...client, appVersion: '1.1.0' })).toBeNull();
    // The same from the URL narrowed to Windows.
    expect(
      whichFile(winsparkle.checkForUpdate(await text(`${appcastUrl}?os=windows`), client)?.enclosure.url),
    ).toBe('1.1.0 windows x64');
  });

  it('an arm64 build gets the arm64 installer (without arguments); an x86 build finds nothing it can run', async () => {
    const xml = await text(appcastUrl);
    const offered = winsparkle.checkForUpdate(xml, {
      arch: 'arm64',
      windows: '10.0.22631',
      appVersion: '1.0.0',
    });
    expect(whichFile(offered?.enclosure.url)).toBe('1.1.0 windows arm64');
    expect(offered?.enclosure).toMatchObject({ os: 'windows-arm64', installerArguments: '' });
    expect(winsparkle.loadAppcast(xml, { arch: 'x86', windows: '10.0.19045' })).toEqual([]);
  });

  it('a macOS minimum of 12.0 still reaches Windows; the Windows minimum is what holds an older Windows back', async () => {
    const xml = await text(appcastUrl);
    const item = winsparkle.loadAppcast(xml, { arch: 'x64', windows: '10.0.19045' })[0];
    expect(item).toMatchObject({ version: '1.1.0', minOsVersion: '10.0.17763' });
    expect(xml).toContain('<sparkle:minimumSystemVersion>12.0</sparkle:minimumSystemVersion>');
    // Windows 10 1803 (build 17134) is below 10.0.17763: WinSparkle drops 1.1.0 and 1.0.0 stays current.
    const old = { arch: 'x64', windows: '10.0.17134', appVersion: '1.0.0' } as const;
    expect(winsparkle.checkForUpdate(xml, old)).toBeNull();
  });

  it('a Windows beta tester on ?channel=beta moves 1.2.0-beta.1 → 1.2.0-beta.2, ordered by semver', async () => {
    const xml = await text(`${appcastUrl}?channel=beta`);
    const client = { arch: 'x64', windows: '10.0.19045' } as const;
    expect(winsparkle.compareVersions('1.2.0-beta.1', '1.2.0')).toBeLessThan(0);
    const next = winsparkle.checkForUpdate(xml, { ...client, appVersion: '1.2.0-beta.1' });
    expect(next?.version).toBe('1.2.0-beta.2');
    expect(whichFile(next?.enclosure.url)).toBe('1.2.0-beta.2 windows x64');
  });
});

describe('update check with the running OS version', () => {
  async function ask(platform: ArtifactPlatform, osVersion?: unknown) {
    const response = await licenseApiOverHttp(t.baseUrl, 'update-check', {
      licenseKey: purchase.licenseKey,
      toolId: purchase.toolId,
      fingerprint: machine,
      platform,
      arch: 'x64',
      version: '1.0.0',
      ...(osVersion === undefined ? {} : { osVersion }),
    });
    return { status: response.status, body: (await response.json()) as UpdateCheckAnswer };
  }

  it('leaves out a release whose minimum for the platform is above osVersion, and ignores the other platform’s', async () => {
    const version = async (platform: ArtifactPlatform, osVersion?: string) =>
      (await ask(platform, osVersion)).body.update?.version ?? null;
    expect(await version('windows')).toBe('1.1.0');
    expect(await version('windows', '10.0.19045')).toBe('1.1.0');
    expect(await version('windows', '10.0.17134')).toBeNull();
    expect(await version('macos', '12.1')).toBe('1.1.0');
    expect(await version('macos', '11.7.10')).toBeNull();
    const wrong = await ask('windows', 'Windows 11');
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain('osVersion');
  });
});

describe('Sparkle 2 (ported SUAppcast, SUAppcastItem, SUStandardVersionComparator) on the documented URL', () => {
  it('compares semver prereleases as equal, which is why sparkle:version is the build number', () => {
    expect(sparkle.compareVersions('1.2.0-beta.1', '1.2.0-beta.2')).toBe(0);
    expect(sparkle.compareVersions('1.2.0-beta.2', '1.2.0')).toBe(0);
    expect(sparkle.compareVersions('3', '4')).toBeLessThan(0);
    expect(sparkle.compareVersions('1.10', '1.9.1')).toBeGreaterThan(0);
  });

  it('a stable Mac app never sees a beta: the plain URL has none, and it is offered nothing past 1.1.0', async () => {
    const xml = await text(appcastUrl);
    const items = sparkle.parseAppcast(xml);
    expect(
      items.some((item) => item.channel !== undefined || item.displayVersionString.includes('beta')),
    ).toBe(false);
    const onCurrent = { hostVersion: String(fileBuild('1.1.0')), systemVersion: '14.5' };
    expect(sparkle.bestUpdate(xml, onCurrent)).toBeNull();
    // Even the beta URL offers it nothing while it has not opted in to the channel.
    expect(sparkle.bestUpdate(await text(`${appcastUrl}?channel=beta`), onCurrent)).toBeNull();
  });

  it('an Intel Mac gets the universal archive from the plain URL; &arch=arm64 gives the arm64-only one', async () => {
    const host = { hostVersion: '1', systemVersion: '13.6' };
    const plain = sparkle.bestUpdate(await text(appcastUrl), host);
    expect(plain).toMatchObject({ versionString: '2', displayVersionString: '1.1.0', criticalUpdate: true });
    expect(whichFile(plain?.fileURL)).toBe('1.1.0 macos universal');
    const arm = sparkle.bestUpdate(await text(`${appcastUrl}?os=macos&arch=arm64`), host);
    expect(whichFile(arm?.fileURL)).toBe('1.1.0 macos arm64');
    // macOS 11 is below the release's 12.0: Sparkle leaves 1.1.0 out.
    expect(sparkle.bestUpdate(await text(appcastUrl), { ...host, systemVersion: '11.7.10' })).toBeNull();
  });

  it('a beta tester moves 1.2.0-beta.1 → 1.2.0-beta.2 → 1.2.0 by build number', async () => {
    const url = `${appcastUrl}?channel=beta`;
    const tester = { systemVersion: '14.5', allowedChannels: ['beta'] };
    const onBeta1 = sparkle.bestUpdate(await text(url), {
      ...tester,
      hostVersion: String(fileBuild('1.2.0-beta.1')),
    });
    expect(onBeta1).toMatchObject({ displayVersionString: '1.2.0-beta.2', channel: 'beta' });
    expect(whichFile(onBeta1?.fileURL)).toBe('1.2.0-beta.2 macos universal');
    const beta2Build = String(fileBuild('1.2.0-beta.2'));
    expect(onBeta1?.versionString).toBe(beta2Build);
    expect(sparkle.bestUpdate(await text(url), { ...tester, hostVersion: beta2Build })).toBeNull();

    const final = await release('1.2.0', {}, [
      archive('macos', 'universal', '1.2.0'),
      archive('windows', 'x64', '1.2.0'),
    ]);
    const onBeta2 = sparkle.bestUpdate(await text(url), { ...tester, hostVersion: beta2Build });
    expect(onBeta2).toMatchObject({
      displayVersionString: '1.2.0',
      versionString: String(final.release.buildNumber),
    });
    expect(onBeta2?.channel).toBeUndefined();
    expect(
      sparkle.bestUpdate(await text(url), { ...tester, hostVersion: String(final.release.buildNumber) }),
    ).toBeNull();
    // A stable app moves on to the final release too, and WinSparkle's beta tester reaches it by semver.
    const stable = sparkle.bestUpdate(await text(appcastUrl), {
      hostVersion: String(fileBuild('1.1.0')),
      systemVersion: '14.5',
    });
    expect(stable?.displayVersionString).toBe('1.2.0');
    const windowsTester = winsparkle.checkForUpdate(await text(url), {
      arch: 'x64',
      windows: '10.0.19045',
      appVersion: '1.2.0-beta.2',
    });
    expect(windowsTester?.version).toBe('1.2.0');
  });
});
