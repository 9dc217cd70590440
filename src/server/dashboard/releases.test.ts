import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  freshTotp,
  signedInBuyer,
  signedInOperator,
  uploadForm,
  verifiedOperator,
} from '../../../test/support/dashboard-helpers';
import { sharedForFile, shopTestAppForFile } from '../../../test/support/file-apps';
import { nupkg } from '../../../test/support/release-fixtures';
import { addTool } from '../../../test/support/shop-fixtures';
import type { AdminTool } from '../../shared/dashboard';
import type { AdminRelease, ReleasePublicKeyResponse } from '../../shared/releases';
import { auditLog } from '../db/schema/operator';
import { releases } from '../db/schema/releases';

/** The dashboard's Releases over real HTTP: only a verified operator, and publish and yank need a fresh code. */
const t = shopTestAppForFile();
const operator = sharedForFile(() => verifiedOperator(t));

const freshCode = () => freshTotp(t, operator.secret);

/** A multipart upload over the listening server, as the browser's XMLHttpRequest sends it. */
function uploadArtifact(releaseId: string, fields: Record<string, string>, file: Buffer, fileName: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', new Blob([new Uint8Array(file)]), fileName);
  return uploadForm(t.baseUrl, operator.client, `/api/admin/releases/${releaseId}/artifacts`, form);
}

describe('who may use the release routes', () => {
  it('answers 401 to a stranger and 403 to a buyer or an operator without the second factor, before reading a body', async () => {
    const tool = await addTool(t);
    const routes = [
      ['GET', `/api/admin/tools/${tool.id}/releases`],
      ['POST', `/api/admin/tools/${tool.id}/releases`],
      ['PATCH', `/api/admin/releases/${tool.id}`],
      ['POST', `/api/admin/releases/${tool.id}/artifacts`],
      ['DELETE', `/api/admin/releases/${tool.id}/artifacts/${tool.id}`],
      ['POST', `/api/admin/releases/${tool.id}/publish`],
      ['POST', `/api/admin/releases/${tool.id}/yank`],
    ] as const;
    const stranger = await t.client();
    const buyer = (await signedInBuyer(t)).client;
    const unverified = (await signedInOperator(t)).client;
    for (const [method, url] of routes) {
      expect((await stranger.request(method, url, { bad: 1 })).statusCode, `${method} ${url}`).toBe(401);
      expect((await buyer.request(method, url, { bad: 1 })).statusCode, `${method} ${url}`).toBe(403);
      expect((await unverified.request(method, url, { bad: 1 })).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await t.ctx.db.select().from(releases).where(eq(releases.toolId, tool.id))).toEqual([]);
  });
});

describe('a release from draft to yanked', () => {
  it('creates, uploads, edits, publishes and yanks with codes, answering the release with its notes rendered', async () => {
    const tool = await addTool(t, { name: 'Ledger Lens Releases' });
    const created = await operator.client.post(`/api/admin/tools/${tool.id}/releases`, {
      version: 'v1.1.0',
      channel: 'stable',
      notesMarkdown: '## Faster\n\n[x](javascript:alert(1)) <img src=x onerror=alert(2)>',
      minimumWindowsVersion: '10.0.17763',
      critical: false,
    });
    expect(created.statusCode).toBe(200);
    const draft = created.json<AdminRelease>();
    expect(draft).toMatchObject({
      version: '1.1.0',
      state: 'draft',
      artifacts: [],
      buildNumber: 1,
      minimumMacosVersion: null,
      minimumWindowsVersion: '10.0.17763',
    });
    expect(draft.notesHtml).toContain('<h2>Faster</h2>');
    expect(draft.notesHtml).not.toMatch(/javascript:|onerror|<img/);

    const bad = await operator.client.post(`/api/admin/tools/${tool.id}/releases`, {
      version: '1.1',
      critical: false,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toHaveProperty('version');

    const installer = randomBytes(50_000);
    const uploaded = await uploadArtifact(
      draft.id,
      { platform: 'windows', arch: 'x64', kind: 'installer' },
      installer,
      'Setup 1.1.0.exe',
    );
    expect(uploaded.status).toBe(200);
    const withFile = (await uploaded.json()) as AdminRelease;
    const [artifact] = withFile.artifacts;
    expect(artifact).toMatchObject({
      fileName: 'Setup 1.1.0.exe',
      size: installer.byteLength,
      sha256: createHash('sha256').update(installer).digest('hex'),
    });
    const key = (await t.client()).get('/api/updates/public-key');
    const publicKey = (await key).json<ReleasePublicKeyResponse>();
    expect(
      verify(
        null,
        installer,
        createPublicKey(publicKey.publicKey),
        Buffer.from(artifact?.signature ?? '', 'base64'),
      ),
    ).toBe(true);

    const misplacedArguments = await uploadArtifact(
      draft.id,
      { platform: 'macos', arch: 'universal', kind: 'sparkle', installerArguments: '/SILENT' },
      randomBytes(100),
      'LedgerLens.zip',
    );
    expect(misplacedArguments.status).toBe(400);
    const silent = await uploadArtifact(
      draft.id,
      { platform: 'windows', arch: 'arm64', kind: 'sparkle', installerArguments: ' /SILENT /NORESTART ' },
      randomBytes(100),
      'LedgerLens-arm64-setup.exe',
    );
    expect(silent.status).toBe(200);
    expect(
      ((await silent.json()) as AdminRelease).artifacts.find((file) => file.kind === 'sparkle'),
    ).toMatchObject({ arch: 'arm64', installerArguments: '/SILENT /NORESTART' });

    const wrongPackage = await uploadArtifact(
      draft.id,
      { platform: 'windows', arch: 'x64', kind: 'velopack' },
      nupkg('LedgerLensReleases', '1.2.0'),
      'LedgerLensReleases-1.1.0-full.nupkg',
    );
    expect(wrongPackage.status).toBe(400);
    expect(((await wrongPackage.json()) as { message: string }).message).toBe(
      'This package is LedgerLensReleases 1.2.0, not LedgerLensReleases 1.1.0.',
    );

    const edited = await operator.client.request('PATCH', `/api/admin/releases/${draft.id}`, {
      notesMarkdown: '**Bold**',
      critical: true,
    });
    expect(edited.json<AdminRelease>()).toMatchObject({
      critical: true,
      notesHtml: '<p><strong>Bold</strong></p>',
    });

    const noCode = await operator.client.post(`/api/admin/releases/${draft.id}/publish`, {});
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().fieldErrors).toHaveProperty('code');
    const wrongCode = await operator.client.post(`/api/admin/releases/${draft.id}/publish`, {
      code: '000000',
    });
    expect(wrongCode.statusCode).toBe(400);
    expect((await t.ctx.db.select().from(releases).where(eq(releases.id, draft.id)))[0]?.state).toBe('draft');

    const published = await operator.client.post(`/api/admin/releases/${draft.id}/publish`, {
      code: await freshCode(),
    });
    expect(published.statusCode).toBe(200);
    expect(published.json<AdminRelease>()).toMatchObject({
      state: 'published',
      publishedAt: t.clock.now().toISOString(),
    });

    const late = await uploadArtifact(
      draft.id,
      { platform: 'macos', arch: 'arm64', kind: 'installer' },
      installer,
      'Late.dmg',
    );
    expect(late.status).toBe(409);
    expect(((await late.json()) as { message: string }).message).toBe(
      'A published release never changes its files.',
    );
    const removal = await operator.client.request(
      'DELETE',
      `/api/admin/releases/${draft.id}/artifacts/${artifact?.id}`,
    );
    expect(removal.statusCode).toBe(409);

    const yanked = await operator.client.post(`/api/admin/releases/${draft.id}/yank`, {
      code: await freshCode(),
    });
    expect(yanked.json<AdminRelease>()).toMatchObject({ state: 'yanked' });

    const listed = await operator.client.get(`/api/admin/tools/${tool.id}/releases`);
    expect(listed.json<AdminRelease[]>().map((release) => [release.version, release.state])).toEqual([
      ['1.1.0', 'yanked'],
    ]);

    const audit = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `release:${draft.id}`))
      .orderBy(desc(auditLog.id));
    expect(audit.map((row) => row.action)).toEqual([
      'release.yank',
      'release.publish',
      'release.edit',
      'release.upload',
      'release.upload',
      'release.create',
    ]);
    expect(new Set(audit.map((row) => row.actor))).toEqual(new Set([operator.email]));
  });

  it('sets a tool’s Velopack package id in the tool editor, showing the default made from the name', async () => {
    const tool = await addTool(t, { name: 'PDF Toolkit' });
    const before = (await operator.client.get(`/api/admin/tools/${tool.id}`)).json<AdminTool>();
    expect(before).toMatchObject({ packageId: null, defaultPackageId: 'PDFToolkit' });
    const input = {
      name: 'PDF Toolkit',
      description: tool.description,
      device: 'Windows',
      priceINR: '999',
      priceUSD: '',
      comingSoon: false,
      active: true,
      delivery: 'license_key',
      activationLimit: '2',
    };
    const bad = await operator.client.post(`/api/admin/tools/${tool.id}`, {
      ...input,
      packageId: 'Pdf Toolkit!',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toHaveProperty('packageId');
    const saved = await operator.client.post(`/api/admin/tools/${tool.id}`, {
      ...input,
      packageId: 'PdfToolkit',
    });
    expect(saved.json<AdminTool>()).toMatchObject({ packageId: 'PdfToolkit' });
    const kept = await operator.client.post(`/api/admin/tools/${tool.id}`, input);
    expect(kept.json<AdminTool>().packageId).toBe('PdfToolkit');
    const cleared = await operator.client.post(`/api/admin/tools/${tool.id}`, { ...input, packageId: '' });
    expect(cleared.json<AdminTool>().packageId).toBeNull();
  });
});
