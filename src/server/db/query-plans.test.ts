import { and, eq, lte, or } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app';
import { testAppForFile } from '../../../test/support/file-apps';
import { type ScaleManifest, seedScale } from '../../../test/support/scale-shop';
import { customerDetail, listCustomers } from '../dashboard/customers';
import { ordersPage } from '../dashboard/orders';
import { myLicenses } from '../licenses/devices';
import { findLicense } from '../licenses/lookup';
import { listActivity } from '../operator/activity';
import { findOrder } from '../orders/read/operator';
import { sendTrialEmails } from '../trials/reminders';
import type { Database } from '.';
import { users } from './schema/accounts';
import { licenses } from './schema/licenses';
import { outbox } from './schema/mail';
import { purchases } from './schema/orders';

/**
 * The reads that grow with the shop use an index (issue 35): on a seeded shop of a few thousand rows, after
 * ANALYZE, each query the app's own functions send is EXPLAINed and must not read a big table from end to end.
 * The queries are caught on their way to the driver (a Drizzle logger), so what is planned is what the app sends.
 * They are planned with sequential scans priced out (enable_seqscan off): at a few thousand rows reading a whole
 * table can rightly be the cheaper plan, so what is asserted is that an index CAN answer each query; a Seq Scan
 * left in the plan means none does.
 */

const BIG_TABLES = [
  'users',
  'orders',
  'invoices',
  'credit_notes',
  'purchases',
  'licenses',
  'license_activations',
  'order_events',
  'outbox',
  'audit_log',
  'trials',
  'trial_machines',
  'coupon_redemptions',
];

type Caught = { query: string; params: unknown[] };
type Client = {
  query(text: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  connect?: () => Promise<Client & { release(): void }>;
};

const t = testAppForFile({ now: new Date('2026-11-20T10:00:00Z') });
let manifest: ScaleManifest;
let client: Client;
const caught: Caught[] = [];
let logged: Database;

beforeAll(async () => {
  manifest = await seedScale(t.ctx, { buyers: 2000, orders: 3000, seed: 7 }, () => {});
  client = (t.database.db as unknown as { $client: Client }).$client;
  const logger = { logQuery: (query: string, params: unknown[]) => caught.push({ query, params }) };
  logged = (t.database.driver === 'pglite'
    ? drizzlePglite(client as never, { logger })
    : drizzlePg(client as never, { logger })) as unknown as Database;
}, 240_000);

/** The plans of the queries `work` sends, counting queries (capped at COUNT_LIMIT + 1 rows) left out. */
async function plansOf(work: (ctx: TestApp['ctx']) => Promise<unknown>): Promise<string[]> {
  caught.length = 0;
  await work({ ...t.ctx, db: logged });
  // Counting queries aside, and a transaction's own statements (PostgreSQL's driver logs `begin`).
  const queries = caught.filter((entry) => !/^(select count\(\*\)|begin|commit|rollback)/i.test(entry.query));
  expect(queries.length).toBeGreaterThan(0);
  const plans: string[] = [];
  // One session for the setting and the plans: PGlite is one; from PostgreSQL's pool, one connection.
  const session = t.database.driver === 'postgres' && client.connect ? await client.connect() : client;
  try {
    await session.query('set enable_seqscan = off');
    for (const { query, params } of queries) {
      const { rows } = await session.query(`explain ${query}`, params);
      plans.push(rows.map((row) => String(Object.values(row)[0])).join('\n'));
    }
  } finally {
    await session.query('reset enable_seqscan');
    if (session !== client) (session as unknown as { release(): void }).release();
  }
  return plans;
}

function expectIndexed(plans: string[]) {
  for (const plan of plans) {
    const scanned = BIG_TABLES.filter((table) => new RegExp(`Seq Scan on ${table}\\b`).test(plan));
    expect(scanned, plan).toEqual([]);
  }
}

const idOf = async (email: string) =>
  (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id as string;

describe('query plans on a seeded shop', () => {
  it('license look-up by key hash', async () => {
    const sample = manifest.sampleLicenses[0];
    if (!sample) throw new Error('no sample license');
    expectIndexed(
      await plansOf((ctx) =>
        findLicense(
          { db: ctx.db, dataSecrets: ctx.dataSecrets },
          { ...sample, fingerprint: 'query-plan-test-machine' },
        ),
      ),
    );
  });

  it('order by payment id, orders and licenses of one buyer', async () => {
    expectIndexed(await plansOf((ctx) => findOrder(ctx.db, manifest.samplePaymentIds[3] as string)));
    const buyer = await idOf(manifest.fiftyToolsBuyer);
    expectIndexed(await plansOf((ctx) => customerDetail(ctx, buyer)));
    expectIndexed(await plansOf((ctx) => myLicenses(ctx, buyer)));
  });

  it('orders searched by email, pay_…, invoice number; a deep keyset page', async () => {
    const base = { sort: 'createdAt', dir: 'desc', pageSize: 25 } as const;
    for (const q of [
      manifest.sampleEmails[5] as string,
      '@scale.example'.replace('scale', 'nowhere'),
      manifest.samplePaymentIds[5] as string,
      manifest.sampleInvoiceNumbers[5] as string,
    ])
      expectIndexed(await plansOf((ctx) => ordersPage(ctx, { ...base, q })));
    const first = await ordersPage(t.ctx, base);
    const deep = await ordersPage(t.ctx, { ...base, after: first.next ?? undefined, pageSize: 100 });
    expectIndexed(await plansOf((ctx) => ordersPage(ctx, { ...base, after: deep.next ?? undefined })));
    expectIndexed(
      await plansOf((ctx) => ordersPage(ctx, { ...base, status: 'paid', after: deep.next ?? undefined })),
    );
  });

  it('customers searched and paged; activity paged', async () => {
    const base = { sort: 'createdAt', dir: 'desc', pageSize: 25 } as const;
    for (const q of ['asha.', '@nowhere.example', 'Meera', '54321'])
      expectIndexed(await plansOf((ctx) => listCustomers(ctx, { ...base, q })));
    const first = await listCustomers(t.ctx, base);
    expectIndexed(await plansOf((ctx) => listCustomers(ctx, { ...base, after: first.next ?? undefined })));
    const activity = await listActivity(t.ctx, base);
    expectIndexed(await plansOf((ctx) => listActivity(ctx, { ...base, after: activity.next ?? undefined })));
  });

  it('outbox: the due mail the worker claims', async () => {
    // The worker's claim condition (mail/worker.ts), on an outbox of sent mail.
    const now = t.clock.now();
    expectIndexed(
      await plansOf((ctx) =>
        ctx.db
          .select({ id: outbox.id })
          .from(outbox)
          .where(
            and(eq(outbox.status, 'pending'), or(eq(outbox.attempts, 0), lte(outbox.nextAttemptAt, now))),
          )
          .limit(10),
      ),
    );
  });

  it('trials: the reminder job reads only the trials it still has an email for', async () => {
    expectIndexed(await plansOf((ctx) => sendTrialEmails(ctx)));
  });

  it('is checked against a shop that has the rows it claims', async () => {
    const [row] = await t.ctx.db
      .select({ n: licenses.id })
      .from(licenses)
      .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
      .limit(1);
    expect(row).toBeDefined();
    expect(manifest.rows.orders).toBe(3000);
    for (const kind of ['trials', 'trialMachines', 'couponRedemptions'])
      expect(manifest.rows[kind], kind).toBeGreaterThan(50);
  });
});
