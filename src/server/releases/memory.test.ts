import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import {
  type ActivatedMachine,
  activatedMachines,
  licensedPurchase,
} from '../../../test/support/license-fixtures';
import { addRelease, updaterFiles } from '../../../test/support/release-fixtures';
import { addTool } from '../../../test/support/shop-fixtures';
import { type Database, openDatabase } from '../db';
import type { ChannelFollower } from '../db/notifications';
import { licenses } from '../db/schema/licenses';
import { releases } from '../db/schema/releases';
import { followLicenseChanges } from '../licenses/change-feed';
import { cliActor } from '../operator/audit';
import { followReleaseChanges } from './memory';
import { changeRollout } from './rollout';

/**
 * The published releases behind every feed and update check, remembered while this instance hears release changes
 * (migration 0033, decision 066), and still showing every change at once: one made through this instance, and one
 * written by another writer (a second connection on PostgreSQL, plain SQL on PGlite) that only the trigger announces.
 * Without the feed, nothing is remembered. So with the machine a feed token serves, while license changes are heard.
 */
let t: TestApp;
let feed: ChannelFollower;
let other: { db: Database; close(): Promise<void> };
let machine: ActivatedMachine;
let toolId: string;

const operator = cliActor('release-memory-tester');
/** What the update check offers (the installer) and what the appcast lists (WinSparkle's file). */
const files = (version: string) => updaterFiles('Memory', version, ['installer', 'winsparkle']);

/** The newest version the update check offers a machine on 1.0.0. */
async function offered(): Promise<string | null> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/licenses/update-check',
    payload: {
      licenseKey: purchaseKey,
      toolId,
      fingerprint: machine.fingerprint,
      platform: 'windows',
      arch: 'x64',
      version: '1.0.0',
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ update: { version: string } | null }>().update?.version ?? null;
}

const appcastStatus = async () =>
  (await t.app.inject({ url: new URL(machine.appcastUrl).pathname })).statusCode;

/** The versions the machine's appcast lists. */
async function appcastVersions(): Promise<string[]> {
  const response = await t.app.inject({ url: new URL(machine.appcastUrl).pathname });
  expect(response.statusCode, response.body).toBe(200);
  return [...response.body.matchAll(/<sparkle:shortVersionString>([^<]+)</g)].map((match) => match[1] ?? '');
}

let purchaseKey = '';
let licenseId = '';

beforeAll(async () => {
  t = await createTestApp();
  const tool = await addTool(t, { name: 'Memory Tool' });
  toolId = tool.id;
  const purchase = await licensedPurchase(t.ctx, { toolId });
  purchaseKey = purchase.licenseKey ?? '';
  licenseId = purchase.licenseId;
  [machine] = (await activatedMachines(t.ctx, purchase.licenseId, 1)) as [ActivatedMachine];
  await addRelease(t.ctx, { toolId, version: '1.0.0', artifacts: files('1.0.0') });
  const url = (t.database as { url?: string }).url;
  other = url
    ? await openDatabase({ databaseUrl: url, pgliteDir: '' })
    : { db: t.ctx.db, close: async () => {} };
});
afterAll(async () => {
  await feed?.close();
  await other.close();
  await t.close();
});

describe('without the release change feed', () => {
  it('remembers nothing: every request reads the releases', async () => {
    expect(await offered()).toBeNull();
    expect(await appcastVersions()).toEqual(['1.0.0']);
    expect(t.ctx.caches.publishedReleases.size).toBe(0);
  });
});

describe('while this instance hears release changes', () => {
  it('is listening as soon as it starts, and then remembers what the feeds read', async () => {
    feed = await followReleaseChanges(t.ctx, t.database);
    await expect.poll(() => feed.healthy(), { timeout: 3000 }).toBe(true);
    expect(await offered()).toBeNull();
    expect(await appcastVersions()).toEqual(['1.0.0']);
    expect(t.ctx.caches.publishedReleases.size).toBeGreaterThan(0);
  });

  it('shows a release another writer publishes, once the database announces it', async () => {
    const added = await addRelease(
      { db: other.db, storage: t.ctx.storage },
      { toolId, version: '1.1.0', artifacts: files('1.1.0') },
    );
    await expect.poll(offered, { timeout: 2000, interval: 20 }).toBe('1.1.0');
    await expect.poll(appcastVersions, { timeout: 2000, interval: 20 }).toEqual(['1.1.0', '1.0.0']);
    // A halt through this instance shows at once: the operation forgets what it remembered once committed.
    await changeRollout(t.ctx, added.release.id, { action: 'halt' }, operator);
    expect(await offered()).toBeNull();
    await changeRollout(t.ctx, added.release.id, { action: 'resume' }, operator);
    expect(await offered()).toBe('1.1.0');
    // Withdrawn in plain SQL, as an operator might: gone within the announcement's delivery.
    await other.db
      .update(releases)
      .set({ state: 'yanked', yankedAt: new Date() })
      .where(eq(releases.id, added.release.id));
    await expect.poll(offered, { timeout: 2000, interval: 20 }).toBeNull();
    await expect.poll(appcastVersions, { timeout: 2000, interval: 20 }).toEqual(['1.0.0']);
  });

  it("remembers a token's machine while it hears license changes, and closes the feed at once on one", async () => {
    const licenseFeed = await followLicenseChanges(t.ctx, t.database);
    try {
      await expect.poll(() => licenseFeed.healthy(), { timeout: 3000 }).toBe(true);
      expect(await appcastVersions()).toEqual(['1.0.0']);
      expect(t.ctx.caches.feedOwners.size).toBe(1);
      // Suspended by another writer: only the database's announcement tells this instance.
      await other.db.update(licenses).set({ status: 'suspended' }).where(eq(licenses.id, licenseId));
      await expect.poll(appcastStatus, { timeout: 2000, interval: 20 }).toBe(404);
      await other.db.update(licenses).set({ status: 'active' }).where(eq(licenses.id, licenseId));
      await expect.poll(appcastStatus, { timeout: 2000, interval: 20 }).toBe(200);
    } finally {
      await licenseFeed.close();
    }
  });

  it('answers a revalidation 304 from what it remembers, and the whole feed once a release or the license changes', async () => {
    const licenseFeed = await followLicenseChanges(t.ctx, t.database);
    try {
      await expect.poll(() => licenseFeed.healthy(), { timeout: 3000 }).toBe(true);
      const path = new URL(machine.appcastUrl).pathname;
      const ask = (etag: string) => t.app.inject({ url: path, headers: { 'if-none-match': etag } });
      const first = await t.app.inject({ url: path });
      const etag = String(first.headers.etag);
      expect((await ask(etag)).statusCode).toBe(304);
      expect((await ask(etag)).statusCode).toBe(304);
      // Published by another writer: the old ETag gets the new feed.
      await addRelease(
        { db: other.db, storage: t.ctx.storage },
        { toolId, version: '1.3.0', artifacts: files('1.3.0') },
      );
      await expect.poll(async () => (await ask(etag)).statusCode, { timeout: 2000, interval: 20 }).toBe(200);
      const published = await ask(etag);
      expect(published.body).toContain('<sparkle:shortVersionString>1.3.0<');
      const afterRelease = String(published.headers.etag);
      expect((await ask(afterRelease)).statusCode).toBe(304);
      // The license's updates end before 1.3.0: the same machine, another offer, another ETag.
      await other.db
        .update(licenses)
        .set({ updatesUntil: new Date('2000-01-01T00:00:00Z') })
        .where(eq(licenses.id, licenseId));
      await expect
        .poll(async () => (await ask(afterRelease)).statusCode, { timeout: 2000, interval: 20 })
        .toBe(200);
      expect((await ask(afterRelease)).body).not.toContain('<sparkle:shortVersionString>1.3.0<');
    } finally {
      await other.db.update(licenses).set({ updatesUntil: null }).where(eq(licenses.id, licenseId));
      await licenseFeed.close();
      await t.ctx.db
        .update(releases)
        .set({ state: 'yanked', yankedAt: new Date() })
        .where(eq(releases.toolId, toolId));
    }
  });

  it('stops remembering when the feed stops', async () => {
    await feed.close();
    expect(t.ctx.releaseChanges.follower).toBeUndefined();
    t.ctx.caches.publishedReleases.clear();
    await addRelease(
      { db: other.db, storage: t.ctx.storage },
      { toolId, version: '1.2.0', artifacts: files('1.2.0') },
    );
    expect(await offered()).toBe('1.2.0');
    expect(t.ctx.caches.publishedReleases.size).toBe(0);
  });
});
