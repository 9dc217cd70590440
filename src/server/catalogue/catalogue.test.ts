import { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { addTool, buyTool, catalogueRows, newBuyer } from '../../../test/support/shop-fixtures';
import type { PurchasedTool, Tool } from '../../shared/shop';
import { tools } from '../db/schema/catalogue';
import { auditLog } from '../db/schema/operator';
import { cliActor } from '../operator/audit';
import { startUp } from '../startup';
import { sha256Hex } from '../storage';
import { activeCatalogue } from './catalogue';
import { invalidateCatalogue } from './catalogue-cache';
import { attachToolFile, createTool, updateTool } from './operator';
import { seedDefaultCatalogue } from './seed';

const t = shopTestAppForFile();

/** The entries of a ZIP archive, read from its central directory. */
function unzip(archive: Buffer): Map<string, string> {
  const entries = new Map<string, string>();
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let offset = archive.readUInt32LE(end + 16);
  for (let i = 0; i < archive.readUInt16LE(end + 10); i++) {
    const nameLength = archive.readUInt16LE(offset + 28);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const local = archive.readUInt32LE(offset + 42);
    const name = archive.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    entries.set(
      name,
      inflateRawSync(archive.subarray(dataStart, dataStart + compressedSize)).toString('utf8'),
    );
    offset += 46 + nameLength;
  }
  return entries;
}

describe('GET /api/alltools/', () => {
  it('seeds an empty database with the default catalogue on first read', async () => {
    const client = await t.client();
    const response = await client.get('/api/alltools/');
    expect(response.statusCode).toBe(200);
    const list = response.json<Tool[]>();
    expect(list.map((tool) => [tool.name, tool.device, tool.comingSoon])).toEqual([
      ['PDF Utility Toolkit', 'Windows', false],
      ['PDF Utility Toolkit', 'macOS', false],
      ['GST Reconciliation Assistant', null, true],
    ]);
    for (const tool of list) {
      expect(tool.description.split(/\s+/).length).toBeGreaterThan(40);
      expect(tool.purchased).toBe(false);
    }
    expect(list[0]).toMatchObject({ price: 1499, priceINR: 1499, priceUSD: 19.99 });
  });

  it('stores real sample archives whose recorded hash matches', async () => {
    const { windows, macos, comingSoon } = await catalogueRows(t);
    for (const tool of [windows, macos]) {
      expect(tool.fileKey).toBeTruthy();
      const bytes = await t.ctx.storage.read(tool.fileKey ?? '');
      expect(bytes).not.toBeNull();
      if (!bytes) continue;
      expect(sha256Hex(bytes)).toBe(tool.fileSha256);
      expect(bytes.length).toBe(tool.fileSize);
      const entries = unzip(bytes);
      expect([...entries.keys()]).toEqual(['README.txt', 'LICENSE.txt']);
      expect(entries.get('README.txt')).toContain(`PDF Utility Toolkit (${tool.device})`);
    }
    expect(comingSoon.fileKey).toBeNull();
    expect(comingSoon.delivery).toBe('credentials');
  });

  it('seeds only once, however often it is asked', async () => {
    const before = await t.ctx.db.select({ id: tools.id }).from(tools);
    expect(await seedDefaultCatalogue(t.ctx)).toEqual({ seeded: false });
    expect(await t.ctx.db.select({ id: tools.id }).from(tools)).toHaveLength(before.length);
  });

  it('hides inactive tools and shows catalogue edits once the cache is invalidated', async () => {
    const hidden = await addTool(t, { name: 'Retired tool', active: false });
    const shown = await addTool(t, { name: 'Zeta tool', sortOrder: 99 });
    const client = await t.client();
    const names = (await client.get('/api/alltools/')).json<Tool[]>().map((tool) => tool._id);
    expect(names).not.toContain(hidden.id);
    expect(names.at(-1)).toBe(shown.id);

    await t.ctx.db.update(tools).set({ active: false }).where(eq(tools.id, shown.id));
    invalidateCatalogue(t.ctx);
    const after = (await client.get('/api/alltools/')).json<Tool[]>().map((tool) => tool._id);
    expect(after).not.toContain(shown.id);
  });

  it('shows every change made through the tools service at once, whichever front end calls it', async () => {
    const client = await t.client();
    const ids = async () => (await client.get('/api/alltools/')).json<Tool[]>().map((tool) => tool._id);
    await ids(); // the cache is warm: a write that forgot it would stay unseen for the TTL
    const actor = cliActor('tester');
    const added = await createTool(
      t.ctx,
      {
        name: 'Cache check',
        description: 'Appears without waiting.',
        device: 'Windows',
        priceINR: 49_900,
        priceUSD: 799,
        delivery: 'license_key',
        comingSoon: false,
        active: true,
      },
      actor,
    );
    expect(await ids()).toContain(added.id);
    await updateTool(t.ctx, added.id, { active: false }, actor);
    expect(await ids()).not.toContain(added.id);
    await updateTool(t.ctx, added.id, { active: true }, actor);
    // A change of place is audited as the change it is.
    await updateTool(t.ctx, added.id, { sortOrder: 15, icon: '/icons/cache.svg' }, actor);
    const [moved] = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, `tool:${added.id}`), eq(auditLog.action, 'tool.update')))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(moved?.after).toEqual({ sortOrder: 15, icon: '/icons/cache.svg' });
    const stream = Readable.from([Buffer.from('PK new installer')]);
    const { stored } = await attachToolFile(t.ctx, added.id, { name: 'cache-check.zip', stream }, actor);
    expect(stored.sha256).toBe(sha256Hex(Buffer.from('PK new installer')));
    expect(await ids()).toContain(added.id);
  });

  it('marks the tools the logged-in user owns, and only theirs', async () => {
    const { windows } = await catalogueRows(t);
    const owner = await newBuyer(t);
    const other = await newBuyer(t);
    await buyTool(t, owner.client, windows.id);

    const mine = (await owner.client.get('/api/alltools/')).json<Tool[]>();
    expect(mine.filter((tool) => tool.purchased).map((tool) => tool._id)).toEqual([windows.id]);
    const theirs = (await other.client.get('/api/alltools/')).json<Tool[]>();
    expect(theirs.some((tool) => tool.purchased)).toBe(false);
    const anonymous = (await (await t.client()).get('/api/alltools/')).json<Tool[]>();
    expect(anonymous.some((tool) => tool.purchased)).toBe(false);
  });

  it('serves repeated anonymous reads from the cache without touching the database', async () => {
    await activeCatalogue(t.ctx);
    await t.ctx.db.update(tools).set({ name: 'Renamed behind the cache' }).where(eq(tools.sortOrder, 10));
    const client = await t.client();
    const names = (await client.get('/api/alltools/')).json<Tool[]>().map((tool) => tool.name);
    expect(names).not.toContain('Renamed behind the cache');
    await t.ctx.db.update(tools).set({ name: 'PDF Utility Toolkit' }).where(eq(tools.sortOrder, 10));
  });
});

describe('GET /api/my-tools/', () => {
  it('lists only the caller’s purchases', async () => {
    const { windows, macos } = await catalogueRows(t);
    const alice = await newBuyer(t);
    const bob = await newBuyer(t);
    await buyTool(t, alice.client, macos.id, 'USD');
    await buyTool(t, bob.client, windows.id);

    const mine = (await alice.client.get('/api/my-tools/')).json<PurchasedTool[]>();
    expect(mine).toEqual([
      {
        _id: macos.id,
        name: 'PDF Utility Toolkit',
        description: macos.description,
        device: 'macOS',
        icon: null,
        purchaseDate: t.clock.now().toISOString(),
        // The sample download is the installer of release 1.0.0 (releases/first-release.ts).
        currentVersion: expect.objectContaining({ version: '1.0.0' }),
        earlierVersions: [],
      },
    ]);
    const bobs = (await bob.client.get('/api/my-tools/')).json<PurchasedTool[]>();
    expect(bobs.map((tool) => tool._id)).toEqual([windows.id]);
  });

  it('needs a logged-in user', async () => {
    const response = await (await t.client()).get('/api/my-tools/');
    expect(response.statusCode).toBe(401);
  });
});

describe('a database that already has tools', () => {
  let other: TestApp;
  beforeAll(async () => {
    other = await createTestApp();
  });
  afterAll(() => other.close());

  it('is not seeded at the next start, even when every tool is inactive', async () => {
    await other.ctx.db.update(tools).set({ active: false });
    const before = await other.ctx.db.select().from(tools);
    expect(before.length).toBeGreaterThan(0);
    expect((await startUp(other.database, other.ctx)).catalogueSeeded).toBe(false);
    invalidateCatalogue(other.ctx);
    const list = (await (await other.client()).get('/api/alltools/')).json<Tool[]>();
    expect(list).toEqual([]);
    expect(await other.ctx.db.select().from(tools)).toHaveLength(before.length);
  });
});
