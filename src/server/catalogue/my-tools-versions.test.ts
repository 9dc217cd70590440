import { describe, expect, it } from 'vitest';
import { testAppForFile } from '../../../test/support/file-apps';
import { licensedPurchase } from '../../../test/support/license-fixtures';
import { addRelease } from '../../../test/support/release-fixtures';
import { addTool, loginAs, newBuyer } from '../../../test/support/shop-fixtures';
import type { PurchasedTool } from '../../shared/shop';

const t = testAppForFile();

const installer = (version: string, platform: 'windows' | 'macos' = 'windows') => ({
  platform,
  arch: platform === 'macos' ? ('universal' as const) : ('x64' as const),
  kind: 'installer' as const,
  fileName: `Ledger-${version}-${platform === 'macos' ? 'mac.dmg' : 'setup.exe'}`,
  content: Buffer.from(`installer of ${version} for ${platform}`),
});

describe('My Tools versions', () => {
  it('shows the current stable version with its sanitised notes, its installers and the earlier versions', async () => {
    const tool = await addTool(t, { name: 'Ledger' });
    const purchase = await licensedPurchase(t.ctx, { toolId: tool.id });
    const buyer = await loginAs(t, { id: purchase.userId });
    const release = (version: string, extra = {}) =>
      addRelease(t.ctx, { toolId: tool.id, version, artifacts: [installer(version)], ...extra });
    await release('1.0.0', { publishedAt: new Date('2026-09-01T00:00:00Z') });
    const current = await release('1.1.0', {
      notesMarkdown:
        '## New\n\n<script>alert(1)</script><img src=x onerror="alert(1)"> [x](javascript:alert(1))',
      publishedAt: new Date('2026-11-01T00:00:00Z'),
      minimumWindowsVersion: '10.0.17763',
      artifacts: [
        installer('1.1.0'),
        installer('1.1.0', 'macos'),
        { ...installer('1.1.0'), kind: 'sparkle' },
      ],
    });
    await release('1.2.0-beta.1', { channel: 'beta' });
    const yanked = await release('1.3.0', { state: 'yanked' });
    await release('1.4.0', { state: 'draft' });

    const [mine] = (await buyer.get('/api/my-tools/')).json<PurchasedTool[]>();
    expect(mine?.currentVersion).toEqual({
      version: '1.1.0',
      publishedAt: '2026-11-01T00:00:00.000Z',
      notesHtml: expect.any(String),
      minimumMacosVersion: null,
      minimumWindowsVersion: '10.0.17763',
      installers: current.artifacts.slice(0, 2).map((artifact) => ({
        artifactId: artifact.id,
        platform: artifact.platform,
        arch: artifact.arch,
        fileName: artifact.fileName,
        size: artifact.size,
      })),
    });
    expect(mine?.currentVersion?.notesHtml).toContain('<h2>New</h2>');
    expect(mine?.currentVersion?.notesHtml).not.toMatch(/<script|onerror|<img|href="javascript/);
    expect(mine?.earlierVersions.map((version) => version.version)).toEqual(['1.0.0']);

    // A download button: a fresh 3-hour link of the owner's, then the file itself.
    const [windows] = current.artifacts;
    const button = await buyer.get(`/api/my-tools/installers/${windows?.id}`);
    expect(button.statusCode).toBe(303);
    expect(button.headers.location).toMatch(/^\/api\/downloads\/[\w-]{43}$/);
    const file = await buyer.get(String(button.headers.location));
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.toString()).toBe('installer of 1.1.0 for windows');
    expect(file.headers['content-disposition']).toContain('Ledger-1.1.0-setup.exe');
    const resumed = await buyer.get(String(button.headers.location), { range: 'bytes=13-' });
    expect(resumed.statusCode).toBe(206);
    expect(resumed.rawPayload.toString()).toBe('1.1.0 for windows');

    // Nobody else's, no yanked release's, no file that is not an installer.
    const stranger = await newBuyer(t);
    const refused = await stranger.client.get(`/api/my-tools/installers/${windows?.id}`, {
      accept: 'application/json',
    });
    expect(refused.statusCode).toBe(404);
    for (const artifactId of [yanked.artifacts[0]?.id, current.artifacts[2]?.id, 'not-an-id']) {
      expect(
        (await buyer.get(`/api/my-tools/installers/${artifactId}`, { accept: 'application/json' }))
          .statusCode,
      ).toBe(404);
    }
    expect((await (await t.client()).get(`/api/my-tools/installers/${windows?.id}`)).statusCode).toBe(401);
  });

  it('has no versions for a tool without published releases', async () => {
    const tool = await addTool(t, { name: 'Unreleased' });
    const purchase = await licensedPurchase(t.ctx, { toolId: tool.id });
    const [mine] = (await (await loginAs(t, { id: purchase.userId })).get('/api/my-tools/')).json<
      PurchasedTool[]
    >();
    expect(mine).toMatchObject({ currentVersion: null, earlierVersions: [] });
  });
});
