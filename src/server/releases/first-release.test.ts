import { createHash, createPublicKey, randomUUID, verify } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app';
import { testAppForFile } from '../../../test/support/file-apps';
import { addTool } from '../../../test/support/shop-fixtures';
import type { ReleasePublicKeyResponse } from '../../shared/releases';
import { attachToolFile } from '../catalogue/operator';
import { seedDefaultCatalogue } from '../catalogue/seed';
import { tools } from '../db/schema/catalogue';
import { cliActor } from '../operator/audit';
import { signMigratedArtifacts } from './backfill';
import { listReleases, openArtifactStream } from './store';

/** The tool file that existed before releases becomes the installer of release 1.0.0, so no buyer loses it. */
const t = testAppForFile();

/** The hand-written part of the releases migration, run again on a database holding a tool with a file. */
async function runCustomMigrationPart(): Promise<void> {
  const folder = path.resolve(import.meta.dirname, '../../../drizzle');
  const file = readdirSync(folder).find((name) => /^\d+_releases\.sql$/.test(name));
  if (!file) throw new Error('no releases migration');
  const custom = readFileSync(path.join(folder, file), 'utf8').split('-- custom (hand-written):')[1] ?? '';
  for (const statement of custom.split('--> statement-breakpoint')) {
    if (statement.replace(/--.*$/gm, '').trim()) await t.ctx.db.execute(sql.raw(statement));
  }
}

async function publicKey() {
  const answer = await t.app.inject({ url: '/api/updates/public-key' });
  expect(answer.statusCode).toBe(200);
  return answer.json<ReleasePublicKeyResponse>();
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the releases migration', () => {
  it('makes a tool’s file its published release 1.0.0, signed at the next start', async () => {
    // A database from before releases: the app started with the default catalogue, whose files are releases
    // already, so only the fixture tool's file is left for the migration to find.
    await t.ctx.db.update(tools).set({ fileKey: null });
    const bytes = Buffer.from('a macOS disk image stand-in');
    const mac = await addTool(t, { device: 'macOS' });
    const stored = await t.ctx.storage.put(`tools/${mac.id}/PdfMac.dmg`, bytes);
    const updatedAt = new Date('2026-03-04T05:06:07Z');
    await t.ctx.db
      .update(tools)
      .set({
        fileKey: stored.key,
        fileName: 'PdfMac.dmg',
        fileSha256: stored.sha256,
        fileSize: 27,
        updatedAt,
      })
      .where(eq(tools.id, mac.id));
    const withoutFile = await addTool(t, { device: 'Windows' });

    await runCustomMigrationPart();

    const [release, ...more] = await listReleases(t.ctx.db, mac.id);
    expect(more).toEqual([]);
    expect(release).toMatchObject({
      version: '1.0.0',
      channel: 'stable',
      state: 'published',
      publishedAt: updatedAt,
    });
    expect(release?.artifacts).toEqual([
      expect.objectContaining({
        platform: 'macos',
        arch: 'universal',
        kind: 'installer',
        fileName: 'PdfMac.dmg',
        storageKey: stored.key,
        sha256: stored.sha256,
        sha1: '',
        signature: '',
      }),
    ]);
    expect(await listReleases(t.ctx.db, withoutFile.id)).toEqual([]);

    expect(await signMigratedArtifacts(t.ctx)).toEqual({ signed: 1, missing: 0 });
    const [artifact] = (await listReleases(t.ctx.db, mac.id))[0]?.artifacts ?? [];
    const key = await publicKey();
    expect(artifact).toMatchObject({
      size: bytes.byteLength,
      sha1: createHash('sha1').update(bytes).digest('hex'),
      kid: key.kid,
    });
    expect(
      verify(null, bytes, createPublicKey(key.publicKey), Buffer.from(artifact?.signature ?? '', 'base64')),
    ).toBe(true);
    expect(await signMigratedArtifacts(t.ctx)).toEqual({ signed: 0, missing: 0 });

    // Uploading a new tool file the old way leaves release 1.0.0's file in place.
    await attachToolFile(
      t.ctx,
      mac.id,
      { name: 'PdfMac-2.dmg', stream: Readable.from([Buffer.from('new')]) },
      cliActor('test'),
    );
    const opened = await openArtifactStream(t.ctx, { storageKey: stored.key });
    expect(await readAll(opened?.stream ?? Readable.from([]))).toEqual(bytes);
  });

  it('serves byte ranges of an artifact from storage', async () => {
    const bytes = Buffer.from('0123456789');
    const { key } = await t.ctx.storage.put(`releases/${randomUUID()}/range.bin`, bytes);
    const opened = await openArtifactStream(t.ctx, { storageKey: key }, { start: 2, end: 5 });
    expect(opened?.size).toBe(10);
    expect((await readAll(opened?.stream ?? Readable.from([]))).toString()).toBe('2345');
  });
});

describe('the default catalogue', () => {
  it('gives each sample file a signed, published release 1.0.0', async () => {
    const fresh = await createTestApp();
    try {
      await seedDefaultCatalogue(fresh.ctx);
      const seeded = await fresh.ctx.db.select().from(tools).where(sql`${tools.fileKey} is not null`);
      expect(seeded.length).toBeGreaterThan(0);
      for (const tool of seeded) {
        const [release] = await listReleases(fresh.ctx.db, tool.id);
        const artifact = release?.artifacts[0];
        expect(release).toMatchObject({ version: '1.0.0', state: 'published' });
        expect(artifact).toMatchObject({
          kind: 'installer',
          storageKey: tool.fileKey,
          sha256: tool.fileSha256,
        });
        const bytes = await fresh.ctx.storage.read(tool.fileKey ?? '');
        const key = (
          await fresh.app.inject({ url: '/api/updates/public-key' })
        ).json<ReleasePublicKeyResponse>();
        expect(
          verify(
            null,
            bytes ?? Buffer.alloc(0),
            createPublicKey(key.publicKey),
            Buffer.from(artifact?.signature ?? '', 'base64'),
          ),
        ).toBe(true);
      }
    } finally {
      await fresh.close();
    }
  });
});
