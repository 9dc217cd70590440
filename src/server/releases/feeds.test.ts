import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import type { UpdateManager as VelopackUpdateManager } from 'velopack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint, type LicensedPurchase, licensedPurchase } from '../../../test/support/license-fixtures';
import { answerChecker } from '../../../test/support/openapi';
import { addRelease, nupkg, type ReleaseSpec } from '../../../test/support/release-fixtures';
import { addTool, createShopTestApp, type ShopTestApp } from '../../../test/support/shop-fixtures';
import type { LicenseAnswer, UpdateCheckAnswer } from '../../shared/licenses';
import { licenses } from '../db/schema';
import { forgetLicenses } from '../licenses/memory';
import { refundOrder } from '../payments/refund';
import { releaseSigner } from './signing';

const require = createRequire(import.meta.url);
const { UpdateManager, setVelopackLogger } = require('velopack') as {
  UpdateManager: typeof VelopackUpdateManager;
  setVelopackLogger: (callback: (level: string, message: string) => void) => void;
};
// The client logs every HTTP exchange to the console; keep its warnings and errors only.
setVelopackLogger((level, message) => {
  if (level === 'warn' || level === 'error') console.warn(`velopack ${level}: ${message}`);
});

let t: ShopTestApp;
/** The update check's answers are checked against the OpenAPI document's schema. */
let matchesDocument: Awaited<ReturnType<typeof answerChecker>>;
beforeAll(async () => {
  t = await createShopTestApp();
  matchesDocument = await answerChecker(t.app);
});
afterAll(() => t?.close());

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

async function activate(purchase: LicensedPurchase, machine = fingerprint()) {
  const response = await fetch(`${t.baseUrl}/api/licenses/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ licenseKey: purchase.licenseKey, toolId: purchase.toolId, fingerprint: machine }),
  });
  const answer = (await response.json()) as LicenseAnswer;
  if (!answer.updates) throw new Error(`activate answered ${JSON.stringify(answer)}`);
  return { machine, ...answer.updates };
}

/** A licensed tool with a package id, bought by a fresh buyer. */
async function licensedTool(packageId: string) {
  const tool = await addTool(t, { name: `${packageId} tool`, packageId });
  return licensedPurchase(t.ctx, { toolId: tool.id });
}

const notFoundBody = async () => (await fetch(`${t.baseUrl}/api/no-such-route`)).text();

describe('Velopack feed', () => {
  it('a real Velopack client finds 1.1.0 on the win feed, downloads the package the feed describes, and the URL dies with a refund', async () => {
    const purchase = await licensedTool('PdfToolkit');
    const velopackPackage = (version: string) => ({
      platform: 'windows' as const,
      kind: 'velopack' as const,
      fileName: `PdfToolkit-${version}-full.nupkg`,
      content: nupkg('PdfToolkit', version),
    });
    await addRelease(t.ctx, {
      toolId: purchase.toolId,
      version: '1.0.0',
      artifacts: [velopackPackage('1.0.0')],
    });
    const current = await addRelease(t.ctx, {
      toolId: purchase.toolId,
      version: '1.1.0',
      notesMarkdown: '## Faster merging\n\n<script>alert(1)</script>[x](javascript:alert(1))',
      artifacts: [velopackPackage('1.1.0')],
    });
    await addRelease(t.ctx, {
      toolId: purchase.toolId,
      version: '1.2.0',
      state: 'draft',
      artifacts: [velopackPackage('1.2.0')],
    });
    await addRelease(t.ctx, {
      toolId: purchase.toolId,
      version: '1.3.0',
      state: 'yanked',
      artifacts: [velopackPackage('1.3.0')],
    });
    await addRelease(t.ctx, {
      toolId: purchase.toolId,
      version: '1.4.0-beta.1',
      channel: 'beta',
      artifacts: [velopackPackage('1.4.0-beta.1')],
    });
    const { velopackUrl } = await activate(purchase);

    // A fake installed app of version 1.0.0: Velopack's documented locator override.
    const root = mkdtempSync(path.join(tmpdir(), 'velopack-app-'));
    mkdirSync(path.join(root, 'current'));
    mkdirSync(path.join(root, 'packages'));
    writeFileSync(path.join(root, 'current', 'sq.version'), buildNupkgManifest('PdfToolkit', '1.0.0'));
    writeFileSync(path.join(root, 'Update.exe'), '');
    const manager = new UpdateManager(
      velopackUrl,
      { ExplicitChannel: 'win', AllowVersionDowngrade: false },
      {
        RootAppDir: root,
        UpdateExePath: path.join(root, 'Update.exe'),
        PackagesDir: path.join(root, 'packages'),
        ManifestPath: path.join(root, 'current', 'sq.version'),
        CurrentBinaryDir: path.join(root, 'current'),
        IsPortable: true,
      },
    );
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
    const downloaded = readFileSync(path.join(root, 'packages', 'PdfToolkit-1.1.0-full.nupkg'));
    // This build of the client does not check the checksum itself: the test does.
    expect(sha256(downloaded)).toBe(update.TargetFullRelease.SHA256);
    expect(sha256(downloaded)).toBe(current.artifacts[0]?.sha256);
    rmSync(root, { recursive: true, force: true });

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

/** What an installed Velopack app keeps as `current/sq.version`: the nuspec of the version it runs. */
function buildNupkgManifest(packageId: string, version: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2010/07/nuspec.xsd"><metadata><id>${packageId}</id><version>${version}</version><title>${packageId}</title><authors>x</authors><description>x</description><channel>win</channel><mainExe>${packageId}.exe</mainExe></metadata></package>`;
}

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
    const signer = releaseSigner(t.ctx);
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
        minimumOsVersion: '12.0',
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

    const response = await fetch(appcastUrl);
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
    expect(items.map((item) => [item['sparkle:version'], item.enclosure['sparkle:os']])).toEqual([
      ['1.2.0-beta.1', 'macos'],
      ['1.1.0', 'macos'],
      ['1.0.0', 'macos'],
      ['1.0.0', 'windows'],
    ]);
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

    await fetch(`${t.baseUrl}/api/licenses/deactivate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        licenseKey: purchase.licenseKey,
        toolId: purchase.toolId,
        fingerprint: machine,
      }),
    });
    const freed = await fetch(appcastUrl);
    expect(freed.status).toBe(404);
    expect(await freed.text()).toBe(await notFoundBody());
  });
});

describe('update check', () => {
  async function updateCheck(body: Record<string, unknown>) {
    const response = await fetch(`${t.baseUrl}/api/licenses/update-check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
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
    const signer = releaseSigner(t.ctx);
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
    ).toEqual({ valid: true, code: 'VALID', update: null });

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
    ).toEqual({ valid: false, code: 'NOT_ACTIVATED', update: null });
    await t.ctx.db.update(licenses).set({ status: 'suspended' }).where(eq(licenses.id, purchase.licenseId));
    forgetLicenses(t.ctx, purchase.licenseId); // what the change feed does when the dispute commits
    expect(
      (await updateCheck({ ...ask, platform: 'windows', arch: 'x64', version: '1.0.0' })).answer,
    ).toEqual({ valid: false, code: 'SUSPENDED', update: null });
    const bad = await updateCheck({ ...ask, platform: 'linux', arch: 'x64', version: 'one' });
    expect(bad.status).toBe(400);
    expect(bad.answer).toMatchObject({ valid: false, code: 'validation_error' });
  });
});
