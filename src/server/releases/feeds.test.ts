import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import {
  activateOverHttp,
  fingerprint,
  type LicensedPurchase,
  licenseApiOverHttp,
  licensedPurchase,
} from '../../../test/support/license-fixtures';
import { answerChecker } from '../../../test/support/openapi';
import { addRelease, nupkg, type ReleaseSpec } from '../../../test/support/release-fixtures';
import { addTool } from '../../../test/support/shop-fixtures';
import { installedVelopackApp } from '../../../test/support/velopack';
import type { UpdateCheckAnswer } from '../../shared/licenses';
import { licenses } from '../db/schema/licenses';
import { forgetLicenses } from '../licenses/memory';
import { cliActor } from '../operator/audit';
import { refundOrder } from '../orders/refund';
import { forgetReleases } from './memory';
import { editRelease } from './operator';

const t = shopTestAppForFile();
/** The update check's answers are checked against the OpenAPI document's schema. */
let matchesDocument: Awaited<ReturnType<typeof answerChecker>>;
beforeAll(async () => {
  matchesDocument = await answerChecker(t.app);
});

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

const activate = (purchase: LicensedPurchase) => activateOverHttp(t.baseUrl, purchase);

/** A licensed tool with a package id, bought by a fresh buyer. */
async function licensedTool(packageId: string) {
  const tool = await addTool(t, { name: `${packageId} tool`, packageId });
  return licensedPurchase(t.ctx, { toolId: tool.id });
}

const notFoundBody = async () => (await fetch(`${t.baseUrl}/api/no-such-route`)).text();

describe('Velopack feed', () => {
  it('a real Velopack client finds 1.1.0 on the win feed, downloads the package the feed describes, and the URL dies with a refund', async () => {
    const purchase = await licensedTool('PdfToolkit');
    /** A release of `version` holding its full Velopack package. */
    const release = (version: string, extra: Partial<Parameters<typeof addRelease>[1]> = {}) =>
      addRelease(t.ctx, {
        toolId: purchase.toolId,
        version,
        artifacts: [
          {
            platform: 'windows',
            kind: 'velopack',
            fileName: `PdfToolkit-${version}-full.nupkg`,
            content: nupkg('PdfToolkit', version),
          },
        ],
        ...extra,
      });
    await release('1.0.0');
    const current = await release('1.1.0', {
      notesMarkdown: '## Faster merging\n\n<script>alert(1)</script>[x](javascript:alert(1))',
    });
    await release('1.2.0', { state: 'draft' });
    await release('1.3.0', { state: 'yanked' });
    await release('1.4.0-beta.1', { channel: 'beta' });
    const { velopackUrl } = await activate(purchase);

    // A fake installed app of version 1.0.0: Velopack's documented locator override.
    const app = installedVelopackApp(velopackUrl, 'PdfToolkit', '1.0.0', 'win');
    const { manager } = app;
    expect(manager.getCurrentVersion()).toBe('1.0.0');
    const update = await manager.checkForUpdatesAsync();
    expect(update?.TargetFullRelease).toMatchObject({
      PackageId: 'PdfToolkit',
      Version: '1.1.0',
      Type: 'Full',
    });
    expect(update?.TargetFullRelease.NotesHtml).not.toMatch(/<script|href="javascript/);
    if (!update) throw new Error('no update found');
    await manager.downloadUpdateAsync(update);
    const downloaded = readFileSync(path.join(app.packages, 'PdfToolkit-1.1.0-full.nupkg'));
    // This build of the client does not check the checksum itself: the test does.
    expect(sha256(downloaded)).toBe(update.TargetFullRelease.SHA256);
    expect(sha256(downloaded)).toBe(current.artifacts[0]?.sha256);
    app.remove();

    // The beta channel lists stable and beta packages; drafts and yanked releases are in no feed.
    const beta = (await (await fetch(`${velopackUrl}releases.win-beta.json`)).json()) as {
      Assets: Array<{ Version: string }>;
    };
    expect(beta.Assets.map((asset) => asset.Version)).toEqual(['1.4.0-beta.1', '1.1.0', '1.0.0']);
    expect((await (await fetch(`${velopackUrl}releases.osx.json`)).json()) as unknown).toEqual({
      Assets: [],
    });
    const squirrel = await (await fetch(`${velopackUrl}RELEASES`)).text();
    expect(squirrel.trim().split('\n')).toEqual([
      expect.stringMatching(/^[0-9A-F]{40} PdfToolkit-1\.0\.0-full\.nupkg \d+$/),
      expect.stringMatching(/^[0-9A-F]{40} PdfToolkit-1\.1\.0-full\.nupkg \d+$/),
    ]);
    expect((await fetch(`${velopackUrl}PdfToolkit-1.2.0-full.nupkg`)).status).toBe(404);

    await refundOrder(t.ctx, {
      orderId: purchase.orderId,
      source: 'admin',
      reason: 'Test refund',
      madeByRazorpay: { refundId: 'rfnd_feedtest00001', amount: 99_900 },
    });
    for (const url of [`${velopackUrl}releases.win.json`, `${velopackUrl}PdfToolkit-1.1.0-full.nupkg`]) {
      const response = await fetch(url);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe(await notFoundBody());
    }
  });
});

/** Verifies an Ed25519 signature with OpenSSL from the raw 32-byte key, as Sparkle's SUPublicEDKey holds it. */
function opensslVerifies(rawPublicKeyBase64: string, data: Uint8Array, signatureBase64: string): boolean {
  const dir = mkdtempSync(path.join(tmpdir(), 'openssl-verify-'));
  try {
    const spki = Buffer.concat([
      Buffer.from('302a300506032b6570032100', 'hex'),
      Buffer.from(rawPublicKeyBase64, 'base64'),
    ]);
    writeFileSync(path.join(dir, 'key.der'), spki);
    writeFileSync(path.join(dir, 'data'), data);
    writeFileSync(path.join(dir, 'sig'), Buffer.from(signatureBase64, 'base64'));
    execFileSync(
      'openssl',
      [
        'pkeyutl',
        '-verify',
        '-pubin',
        '-keyform',
        'DER',
        '-inkey',
        'key.der',
        '-rawin',
        '-in',
        'data',
        '-sigfile',
        'sig',
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('Velopack feeds per architecture', () => {
  it('the real client on win-arm64 and on win (x64) each installs its own package of one release', async () => {
    const purchase = await licensedTool('ArchPack');
    // As vpk names them: the default channel's package plainly, another channel's with the channel in the name.
    const uploads = {
      x64: (version: string) => ({
        platform: 'windows' as const,
        arch: 'x64' as const,
        kind: 'velopack' as const,
        fileName: `ArchPack-${version}-full.nupkg`,
        content: nupkg('ArchPack', version),
      }),
      arm64: (version: string) => ({
        platform: 'windows' as const,
        arch: 'arm64' as const,
        kind: 'velopack' as const,
        fileName: `ArchPack-${version}-win-arm64-full.nupkg`,
        content: nupkg('ArchPack', version, { channel: 'win-arm64' }),
      }),
    };
    await addRelease(t.ctx, {
      toolId: purchase.toolId,
      version: '1.0.0',
      artifacts: [uploads.arm64('1.0.0'), uploads.x64('1.0.0')],
    });
    const current = await addRelease(t.ctx, {
      toolId: purchase.toolId,
      version: '1.1.0',
      // arm64 uploaded first: the order the old feed served the wrong one in.
      artifacts: [uploads.arm64('1.1.0'), uploads.x64('1.1.0')],
    });
    const uploaded = (arch: string) => current.artifacts.find((artifact) => artifact.arch === arch);
    const { velopackUrl } = await activate(purchase);

    for (const [channel, arch] of [
      ['win-arm64', 'arm64'],
      ['win', 'x64'],
      ['win-x64', 'x64'],
    ] as const) {
      const app = installedVelopackApp(velopackUrl, 'ArchPack', '1.0.0', channel);
      try {
        const update = await app.manager.checkForUpdatesAsync();
        if (!update) throw new Error(`no update on ${channel}`);
        expect(update.TargetFullRelease).toMatchObject({
          Version: '1.1.0',
          FileName: uploaded(arch)?.fileName,
        });
        await app.manager.downloadUpdateAsync(update);
        const downloaded = readFileSync(path.join(app.packages, uploaded(arch)?.fileName ?? ''));
        expect(sha256(downloaded), `${channel} installs the ${arch} package`).toBe(uploaded(arch)?.sha256);
      } finally {
        app.remove();
      }
    }
    // One build per channel: each feed lists only its architecture's packages.
    const feed = async (channel: string) =>
      (
        (await (await fetch(`${velopackUrl}releases.${channel}.json`)).json()) as {
          Assets: Array<{ FileName: string }>;
        }
      ).Assets.map((asset) => asset.FileName);
    expect(await feed('win-arm64')).toEqual([
      'ArchPack-1.1.0-win-arm64-full.nupkg',
      'ArchPack-1.0.0-win-arm64-full.nupkg',
    ]);
    expect(await feed('win')).toEqual(['ArchPack-1.1.0-full.nupkg', 'ArchPack-1.0.0-full.nupkg']);
    expect(await feed('win-arm64-beta')).toEqual(await feed('win-arm64'));
    expect(await feed('osx-arm64')).toEqual([]);
    expect((await fetch(`${velopackUrl}releases.linux-arm64.json`)).status).toBe(404);
  });
});

describe('appcast', () => {
  it('lists published Sparkle archives newest first, each signature verified by OpenSSL over the downloaded bytes', async () => {
    const purchase = await licensedTool('Scanner');
    const archive = (platform: 'macos' | 'windows', version: string) => ({
      platform,
      arch: platform === 'macos' ? ('universal' as const) : ('x64' as const),
      kind: 'sparkle' as const,
      fileName: `Scanner-${version}-${platform}.zip`,
      content: Buffer.from(`archive of ${version} for ${platform} ${'x'.repeat(200)}`),
    });
    const signer = t.ctx.releaseSigning;
    await addRelease(
      t.ctx,
      {
        toolId: purchase.toolId,
        version: '1.0.0',
        publishedAt: new Date('2026-10-01T10:00:00Z'),
        artifacts: [archive('macos', '1.0.0'), archive('windows', '1.0.0')],
      },
      signer,
    );
    await addRelease(
      t.ctx,
      {
        toolId: purchase.toolId,
        version: '1.1.0',
        critical: true,
        minimumMacosVersion: '12.0',
        publishedAt: new Date('2026-11-25T10:00:00Z'),
        notesMarkdown:
          '## Faster <b>merging</b>\n\n<script>alert(1)</script><img src=x onerror="alert(1)">\n\n[click](javascript:alert(1)) ]]> done',
        artifacts: [archive('macos', '1.1.0')],
      },
      signer,
    );
    await addRelease(
      t.ctx,
      {
        toolId: purchase.toolId,
        version: '1.2.0-beta.1',
        channel: 'beta',
        artifacts: [archive('macos', '1.2.0-beta.1')],
      },
      signer,
    );
    await addRelease(t.ctx, {
      toolId: purchase.toolId,
      version: '1.3.0',
      state: 'draft',
      artifacts: [archive('macos', '1.3.0')],
    });
    await addRelease(t.ctx, {
      toolId: purchase.toolId,
      version: '1.4.0',
      state: 'yanked',
      artifacts: [archive('macos', '1.4.0')],
    });
    const { appcastUrl } = await activate(purchase);

    const response = await fetch(`${appcastUrl}?channel=beta`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/rss+xml');
    const xml = await response.text();
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      parseTagValue: false,
    }).parse(xml, true);
    expect(parsed.rss['xmlns:sparkle']).toBe('http://www.andymatuschak.org/xml-namespaces/sparkle');
    const items = parsed.rss.channel.item as Array<
      Record<string, unknown> & { enclosure: Record<string, string> }
    >;
    // Mac items carry the build number (Sparkle compares it), Windows items the semver (WinSparkle does).
    expect(
      items.map((item) => [
        item['sparkle:version'],
        item['sparkle:shortVersionString'],
        item.enclosure['sparkle:os'],
      ]),
    ).toEqual([
      ['3', '1.2.0-beta.1', 'macos'],
      ['2', '1.1.0', 'macos'],
      ['1.0.0', '1.0.0', 'windows-x64'],
      ['1', '1.0.0', 'macos'],
    ]);
    // Without ?channel=beta there is no beta at all: WinSparkle would offer it to everyone.
    const stable = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      parseTagValue: false,
    }).parse(await (await fetch(appcastUrl)).text());
    expect(
      (stable.rss.channel.item as Array<Record<string, string>>).map(
        (item) => item['sparkle:shortVersionString'],
      ),
    ).toEqual(['1.1.0', '1.0.0', '1.0.0']);
    const [beta, critical] = items;
    expect(beta?.['sparkle:channel']).toBe('beta');
    expect(critical?.['sparkle:channel']).toBeUndefined();
    expect(critical).toMatchObject({
      title: 'Version 1.1.0',
      pubDate: 'Wed, 25 Nov 2026 10:00:00 +0000',
      'sparkle:shortVersionString': '1.1.0',
      'sparkle:minimumSystemVersion': '12.0',
      'sparkle:criticalUpdate': '',
    });
    const notes = String(critical?.description);
    expect(notes).toContain('<h2>Faster <b>merging</b></h2>');
    expect(notes).toContain(']]&gt; done');
    expect(notes).not.toMatch(/<script|onerror|href="javascript|<img/);

    // The key a Mac app puts in SUPublicEDKey, as the server publishes it.
    const { sparklePublicEdKey: publicKey } = (await (
      await fetch(`${t.baseUrl}/api/updates/public-key`)
    ).json()) as {
      sparklePublicEdKey: string;
    };
    for (const item of items) {
      const { url, length, type } = item.enclosure;
      expect(url?.startsWith(appcastUrl.replace('appcast.xml', 'files/'))).toBe(true);
      expect(type).toBe('application/octet-stream');
      const bytes = Buffer.from(await (await fetch(url ?? '')).arrayBuffer());
      expect(bytes.length).toBe(Number(length));
      expect(opensslVerifies(publicKey, bytes, item.enclosure['sparkle:edSignature'] ?? '')).toBe(true);
      const flipped = Buffer.from(bytes);
      flipped[7] = (flipped[7] ?? 0) ^ 0x01;
      expect(opensslVerifies(publicKey, flipped, item.enclosure['sparkle:edSignature'] ?? '')).toBe(false);
    }

    const windowsOnly = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      parseTagValue: false,
    }).parse(await (await fetch(`${appcastUrl}?os=windows`)).text());
    // One item: the parser gives an object, not a list.
    expect(windowsOnly.rss.channel.item['sparkle:version']).toBe('1.0.0');
    expect((await fetch(`${appcastUrl}?os=linux`)).status).toBe(404);
  });

  it('answers 404 like any unknown address for an unknown token, a freed machine and a suspended license', async () => {
    const purchase = await licensedTool('Ledger');
    const { appcastUrl, machine } = await activate(purchase);
    expect((await fetch(appcastUrl)).status).toBe(200);
    const unknown = await fetch(`${t.baseUrl}/api/updates/${'A'.repeat(43)}/appcast.xml`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe(await notFoundBody());

    await t.ctx.db.update(licenses).set({ status: 'suspended' }).where(eq(licenses.id, purchase.licenseId));
    expect((await fetch(appcastUrl)).status).toBe(404);
    await t.ctx.db.update(licenses).set({ status: 'active' }).where(eq(licenses.id, purchase.licenseId));
    expect((await fetch(appcastUrl)).status).toBe(200);

    await licenseApiOverHttp(t.baseUrl, 'deactivate', {
      licenseKey: purchase.licenseKey,
      toolId: purchase.toolId,
      fingerprint: machine,
    });
    const freed = await fetch(appcastUrl);
    expect(freed.status).toBe(404);
    expect(await freed.text()).toBe(await notFoundBody());
  });

  it('answers 304 to a machine that has its feed, and the whole feed once anything it is built from changes', async () => {
    const purchase = await licensedTool('Revalidated');
    const files = (version: string) => [
      {
        platform: 'macos' as const,
        arch: 'universal' as const,
        kind: 'sparkle' as const,
        fileName: `Revalidated-${version}.zip`,
        content: Buffer.from(`archive of ${version}`),
      },
      {
        platform: 'windows' as const,
        kind: 'velopack' as const,
        fileName: `Revalidated-${version}-full.nupkg`,
        content: nupkg('Revalidated', version),
      },
    ];
    const first = await addRelease(t.ctx, {
      toolId: purchase.toolId,
      version: '1.0.0',
      artifacts: files('1.0.0'),
    });
    const { appcastUrl, velopackUrl } = await activate(purchase);
    const feeds = [appcastUrl, `${velopackUrl}releases.win.json`, `${velopackUrl}RELEASES`];
    const get = (url: string, etag?: string) =>
      fetch(url, etag === undefined ? {} : { headers: { 'if-none-match': etag } });
    const tags: string[] = [];
    for (const url of feeds) {
      const whole = await get(url);
      expect(whole.status).toBe(200);
      const etag = whole.headers.get('etag') ?? '';
      expect(etag).toMatch(/^"[\w-]{43}"$/);
      const unchanged = await get(url, etag);
      expect(unchanged.status).toBe(304);
      expect(unchanged.headers.get('etag')).toBe(etag);
      tags.push(etag);
    }
    expect(new Set(tags).size).toBe(feeds.length);

    // Notes edited after publication: the appcast carries them, so its old ETag is answered in full.
    await editRelease(t.ctx, first.release.id, { notesMarkdown: '## Now with notes' }, cliActor('tester'));
    const edited = await get(appcastUrl, tags[0]);
    expect(edited.status).toBe(200);
    expect(await edited.text()).toContain('Now with notes');
    // A new release: every feed answers its old ETag in full, and lists it.
    await addRelease(t.ctx, { toolId: purchase.toolId, version: '1.1.0', artifacts: files('1.1.0') });
    forgetReleases(t.ctx, purchase.toolId);
    for (const [index, url] of feeds.entries()) {
      const changed = await get(url, tags[index]);
      expect(changed.status).toBe(200);
      expect(await changed.text()).toContain('1.1.0');
    }
    // The license suspended: the token is dead, whatever the machine holds.
    await t.ctx.db.update(licenses).set({ status: 'suspended' }).where(eq(licenses.id, purchase.licenseId));
    forgetLicenses(t.ctx);
    expect((await get(appcastUrl, tags[0])).status).toBe(404);
  });
});

describe('update check', () => {
  async function updateCheck(body: Record<string, unknown>) {
    const response = await licenseApiOverHttp(t.baseUrl, 'update-check', body);
    const text = await response.text();
    matchesDocument('POST', '/api/licenses/update-check', { statusCode: response.status, body: text });
    return { status: response.status, answer: JSON.parse(text) as UpdateCheckAnswer };
  }

  it('offers the newest published installer above the running version, stable unless beta is asked for', async () => {
    const purchase = await licensedTool('Invoicer');
    const installer = (version: string, platform: 'windows' | 'macos' = 'windows') => ({
      platform,
      arch: platform === 'macos' ? ('universal' as const) : ('x64' as const),
      kind: 'installer' as const,
      fileName: `Invoicer-${version}-${platform}.exe`,
      content: Buffer.from(`installer ${version} ${platform}`),
    });
    const signer = t.ctx.releaseSigning;
    const release = (version: string, extra: Partial<ReleaseSpec> = {}) =>
      addRelease(
        t.ctx,
        { toolId: purchase.toolId, version, artifacts: [installer(version)], ...extra },
        signer,
      );
    await release('1.0.0');
    await release('1.1.0', {
      critical: true,
      notesMarkdown: 'Fixes <script>alert(1)</script>',
      artifacts: [
        installer('1.1.0'),
        installer('1.1.0', 'macos'),
        { ...installer('1.1.0'), kind: 'sparkle', fileName: 'Invoicer-1.1.0.zip' },
      ],
    });
    await release('1.2.0-beta.1', { channel: 'beta' });
    await release('1.3.0', { state: 'draft' });
    await release('1.4.0', { state: 'yanked' });
    const { machine } = await activate(purchase);
    const ask = { licenseKey: purchase.licenseKey, toolId: purchase.toolId, fingerprint: machine };

    const stable = await updateCheck({ ...ask, platform: 'windows', arch: 'x64', version: '1.0.0' });
    expect(stable.status).toBe(200);
    expect(stable.answer).toMatchObject({
      valid: true,
      code: 'VALID',
      update: {
        version: '1.1.0',
        channel: 'stable',
        critical: true,
        artifact: { fileName: 'Invoicer-1.1.0-windows.exe', kid: signer.kid },
      },
    });
    expect(stable.answer.update?.notesHtml).toBe('<p>Fixes </p>');
    const artifact = stable.answer.update?.artifact;
    const bytes = Buffer.from(await (await fetch(artifact?.url ?? '')).arrayBuffer());
    expect(bytes.length).toBe(artifact?.size);
    expect(sha256(bytes)).toBe(artifact?.sha256);
    expect(signer.verify(signer.kid, bytes, artifact?.signature ?? '')).toBe(true);

    const beta = await updateCheck({
      ...ask,
      platform: 'windows',
      arch: 'x64',
      version: '1.0.0',
      channel: 'beta',
    });
    expect(beta.answer.update).toMatchObject({ version: '1.2.0-beta.1', channel: 'beta' });
    const mac = await updateCheck({ ...ask, platform: 'macos', arch: 'arm64', version: '1.0.0' });
    expect(mac.answer.update?.artifact.fileName).toBe('Invoicer-1.1.0-macos.exe');
    expect(
      (await updateCheck({ ...ask, platform: 'windows', arch: 'x64', version: '1.1.0' })).answer,
    ).toEqual({ valid: true, code: 'VALID', update: null, renewal: null });

    // The license checks are validate's: a machine not activated, a suspended license, a bad request.
    expect(
      (
        await updateCheck({
          ...ask,
          fingerprint: fingerprint(),
          platform: 'windows',
          arch: 'x64',
          version: '1.0.0',
        })
      ).answer,
    ).toEqual({ valid: false, code: 'NOT_ACTIVATED', update: null, renewal: null });
    await t.ctx.db.update(licenses).set({ status: 'suspended' }).where(eq(licenses.id, purchase.licenseId));
    forgetLicenses(t.ctx, purchase.licenseId); // what the change feed does when the dispute commits
    expect(
      (await updateCheck({ ...ask, platform: 'windows', arch: 'x64', version: '1.0.0' })).answer,
    ).toEqual({ valid: false, code: 'SUSPENDED', update: null, renewal: null });
    const bad = await updateCheck({ ...ask, platform: 'linux', arch: 'x64', version: 'one' });
    expect(bad.status).toBe(400);
    expect(bad.answer).toMatchObject({ valid: false, code: 'validation_error' });
  });
});
