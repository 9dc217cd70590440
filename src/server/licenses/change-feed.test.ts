import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { testDriver } from '../../../test/support/database';
import { fingerprint, type LicensedPurchase, licensedPurchase } from '../../../test/support/license-fixtures';
import type { LicenseAnswer, LicenseFile, LicenseFilePayload } from '../../shared/licenses';
import { type Database, openDatabase } from '../db';
import type { ChannelFollower } from '../db/notifications';
import { tools } from '../db/schema/catalogue';
import { licenses } from '../db/schema/licenses';
import { purchases } from '../db/schema/orders';
import { activateLicense } from './activate';
import { followLicenseChanges } from './change-feed';
import { LICENSE_CACHE_TTL_MS } from './memory';
import { validateLicense } from './validate';

/**
 * An instance that hears license changes as they commit answers validate from memory for minutes, and still shows
 * every change at once — made by another instance, the command line or plain SQL (migration 0005, decision 018).
 * "Another writer" is a second connection on PostgreSQL, and on PGlite the same database without the service
 * (which would also drop the entry itself).
 */
let t: TestApp;
let feed: ChannelFollower;
let other: { db: Database; close(): Promise<void> };

beforeAll(async () => {
  t = await createTestApp();
  feed = await followLicenseChanges(t.ctx, t.database);
  const url = (t.database as { url?: string }).url;
  other = url
    ? await openDatabase({ databaseUrl: url, pgliteDir: '' })
    : { db: t.ctx.db, close: async () => {} };
});
afterAll(async () => {
  await feed.close();
  await other.close();
  await t.close();
});

async function activated(): Promise<{
  purchase: LicensedPurchase;
  request: Parameters<typeof validateLicense>[1];
}> {
  const purchase = await licensedPurchase(t.ctx);
  const request = {
    licenseKey: purchase.licenseKey ?? '',
    toolId: purchase.toolId,
    fingerprint: fingerprint(),
  };
  expect((await activateLicense(t.ctx, request)).code).toBe('VALID');
  return { purchase, request };
}

const payloadOf = (answer: LicenseAnswer) =>
  JSON.parse(
    Buffer.from((JSON.parse(answer.licenseFile ?? '') as LicenseFile).payload, 'base64').toString(),
  ) as LicenseFilePayload;

/** The answer once it is `code`, polled every 20 ms for at most `withinMs`. */
async function answerBecomes(
  request: Parameters<typeof validateLicense>[1],
  code: string,
  withinMs: number,
): Promise<{ answer: LicenseAnswer; afterMs: number }> {
  const started = performance.now();
  for (;;) {
    const answer = await validateLicense(t.ctx, request);
    const afterMs = performance.now() - started;
    if (answer.code === code || afterMs > withinMs) return { answer, afterMs };
    await sleep(20);
  }
}

describe('validate while this instance hears license changes', () => {
  it('is listening as soon as it starts', async () => {
    await expect.poll(() => feed.healthy(), { timeout: 3000 }).toBe(true);
  });

  it('answers from memory for longer than the one second it allows itself when it hears nothing', async () => {
    const { request } = await activated();
    // The activation's own notification arrives a moment after it commits, and drops what is held by then.
    await sleep(200);
    const first = await validateLicense(t.ctx, request);
    await sleep(LICENSE_CACHE_TTL_MS + 300);
    t.clock.advance(60_000); // a file signed now would say so
    const later = await validateLicense(t.ctx, request);
    // The same file, signed once: the instance did not look the license up again.
    expect(later.licenseFile).toBe(first.licenseFile);
  });

  it('shows a revocation written by another connection within the two seconds allowed', async () => {
    const { purchase, request } = await activated();
    expect((await validateLicense(t.ctx, request)).code).toBe('VALID');
    await other.db.update(licenses).set({ status: 'revoked' }).where(eq(licenses.id, purchase.licenseId));
    const { answer, afterMs } = await answerBecomes(request, 'REVOKED', 2000);
    expect(answer.code).toBe('REVOKED');
    expect(afterMs).toBeLessThan(2000);
  });

  it('shows a refund, a freed device and a suspension as they commit', async () => {
    const refunded = await activated();
    const freed = await activated();
    const suspended = await activated();
    for (const { request } of [refunded, freed, suspended])
      expect((await validateLicense(t.ctx, request)).code).toBe('VALID');

    await other.db
      .update(purchases)
      .set({ refundedAt: new Date() })
      .where(eq(purchases.id, refunded.purchase.purchaseId));
    await other.db.execute(
      sql`update license_activations set deactivated_at = now() where license_id = ${freed.purchase.licenseId}`,
    );
    await other.db
      .update(licenses)
      .set({ status: 'suspended' })
      .where(eq(licenses.id, suspended.purchase.licenseId));

    expect((await answerBecomes(refunded.request, 'REVOKED', 2000)).answer.code).toBe('REVOKED');
    expect((await answerBecomes(freed.request, 'NOT_ACTIVATED', 2000)).answer.code).toBe('NOT_ACTIVATED');
    expect((await answerBecomes(suspended.request, 'SUSPENDED', 2000)).answer.code).toBe('SUSPENDED');
  });

  it('forgets every license of a tool when the tool is renamed, so files carry the new name', async () => {
    const { purchase, request } = await activated();
    expect(payloadOf(await validateLicense(t.ctx, request)).toolName).not.toBe('Renamed tool');
    await other.db.update(tools).set({ name: 'Renamed tool' }).where(eq(tools.id, purchase.toolId));
    await expect
      .poll(async () => payloadOf(await validateLicense(t.ctx, request)).toolName, { timeout: 2000 })
      .toBe('Renamed tool');
  });

  it('does not treat a price change, or a refund date written again, as a change', async () => {
    const { purchase, request } = await activated();
    await sleep(200);
    const first = await validateLicense(t.ctx, request);
    // Written the way an edit form saves: every field, the unchanged name and limit included.
    await other.db
      .update(tools)
      .set({
        name: sql`${tools.name}`,
        activationLimit: sql`${tools.activationLimit}`,
        priceInrPaise: 299_900,
      })
      .where(eq(tools.id, purchase.toolId));
    await other.db.update(purchases).set({ refundedAt: null }).where(eq(purchases.id, purchase.purchaseId));
    await sleep(200);
    t.clock.advance(60_000);
    expect((await validateLicense(t.ctx, request)).licenseFile).toBe(first.licenseFile);
  });

  it('does not treat a "last seen" write as a change', async () => {
    const { request } = await activated();
    await sleep(200);
    const first = await validateLicense(t.ctx, request);
    await other.db.execute(sql`update license_activations set last_seen_at = now()`);
    await sleep(200);
    t.clock.advance(60_000);
    expect((await validateLicense(t.ctx, request)).licenseFile).toBe(first.licenseFile);
  });
});

// Only PostgreSQL has a connection to lose: PGlite runs in this process.
if (testDriver() === 'postgres') {
  describe('when the listening connection is lost', () => {
    it('falls back to one second from memory, listens again and forgets what it held', async () => {
      const { purchase, request } = await activated();
      expect((await validateLicense(t.ctx, request)).code).toBe('VALID');
      await other.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'listen:license_changes'`,
      );
      await expect.poll(() => feed.healthy(), { timeout: 3000 }).toBe(false);
      // Changed while nobody listened: no notification will ever say so.
      await other.db.update(licenses).set({ status: 'revoked' }).where(eq(licenses.id, purchase.licenseId));
      const { answer, afterMs } = await answerBecomes(request, 'REVOKED', 2000);
      expect(answer.code).toBe('REVOKED');
      expect(afterMs).toBeLessThan(2000);
      await expect.poll(() => feed.healthy(), { timeout: 5000 }).toBe(true);
    });
  });
}
