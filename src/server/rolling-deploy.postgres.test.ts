import { generateKeyPairSync } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, TEST_RELEASE_SIGNING_KEY, type TestApp } from '../../test/support/app';
import { createTestDatabase } from '../../test/support/database';
import { HaproxyProcess } from '../../test/support/haproxy';
import { fingerprint, licensedPurchase } from '../../test/support/license-fixtures';
import { freePort, HttpClient, ServerProcess } from '../../test/support/processes';
import { TEST_DATA_SECRET_KEY } from '../../test/support/settings';
import {
  catalogueRows,
  createUser,
  eventually,
  INR_BILLING,
  loginAs,
} from '../../test/support/shop-fixtures';
import { type ReceivedMail, TestSmtpServer } from '../../test/support/smtp';
import { outbox } from './db/schema/mail';
import { orders, purchases } from './db/schema/orders';
import { EMULATOR_PREFIX } from './payments/gateway';
import { SITE_MANIFEST, type SiteManifest } from './site/static';

/**
 * A rolling deploy as the README's "Run two instances behind HAProxy" tells an operator to make one, with the files
 * of deploy/: HAProxy on deploy/haproxy.cfg (test/support/haproxy.ts replaces its ports, TLS and installed paths) in
 * front of two production servers on one PostgreSQL, sharing PUBLIC_URL, the data key and the signing keys. While
 * a steady mix of page views, catalogue reads, license validations and purchases (paid at the Razorpay emulator,
 * whose webhooks come back through HAProxy too) goes through HAProxy, each instance in turn gets SIGTERM and is
 * replaced by the next release, once HAProxy has the one before back up.
 *
 * The next release is a second copy of the project beside the first, as on the server (releases/<version>, the
 * unit's WorkingDirectory a symlink to one of them), holding one more migration, additive (expand/contract): the
 * first new instance applies it at start while the old one goes on serving on the wider table. A copy rather than
 * a setting that points the server at other migrations: production has no such setting, and the copy is what a
 * deploy really starts.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
const MIGRATION_SQL = 'ALTER TABLE "orders" ADD COLUMN "rolling_deploy_note" text;';

/** deploy/pinkcity-shop@.service's TimeoutStopSec, after which systemd would kill an instance. */
const UNIT_STOP_TIMEOUT_MS =
  Number(
    /^TimeoutStopSec=(\d+)s$/m.exec(
      readFileSync(path.join(repoRoot, 'deploy/pinkcity-shop@.service'), 'utf8'),
    )?.[1] ?? Number.NaN,
  ) * 1000;

/** A steady load, well below what two instances answer: enough that every moment of a restart sees requests. */
const EVERY_MS = { page: 200, catalogue: 200, validate: 500, purchase: 1000 };
/** Licenses validated in turn: each under the license API's 60 a minute per key (and 120 per address). */
const VALIDATED_LICENSES = 10;

type Answer = { route: string; at: number };
type Roll = {
  server: 'app1' | 'app2';
  signalledAt: number;
  /** From SIGTERM to the instance's own /api/ready answering 503. */
  unreadyAfterMs: number;
  /** What the instance answered a catalogue read sent to it after that 503: it is still serving. */
  servingWhileDrainingStatus: number;
  /** From SIGTERM to HAProxy reporting it DOWN, and to the process's exit. */
  downAfterMs: number;
  exitedAfterMs: number;
  exitCode: number | null;
  /** When HAProxy reported its successor UP. */
  upAt: number;
};

/** Requests through HAProxy, each counted by route with its outcome; anything unexpected is a failure. */
class Traffic {
  readonly answered: Answer[] = [];
  readonly failures: string[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  async request(route: string, send: () => Promise<Response>, expected = 200): Promise<Response> {
    const response = await send().catch((error: unknown) => {
      throw new Error(`${route}: ${String(error)}`);
    });
    if (response.status !== expected)
      throw new Error(`${route}: status ${response.status}: ${(await response.text()).slice(0, 200)}`);
    this.answered.push({ route, at: Date.now() });
    return response;
  }

  /** Starts `flow` every `everyMs` until stop(). */
  every(everyMs: number, flow: (n: number) => Promise<unknown>): void {
    let n = 0;
    this.timers.push(
      setInterval(() => {
        const run = flow(n++).then(
          () => undefined,
          (error: unknown) => {
            this.failures.push(`${new Date().toISOString()} ${String(error)}`);
          },
        );
        this.inFlight.add(run);
        void run.finally(() => this.inFlight.delete(run));
      }, everyMs),
    );
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await Promise.allSettled([...this.inFlight]);
  }

  countBetween(from: number, to: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { route, at } of this.answered)
      if (at >= from && at <= to) counts.set(route, (counts.get(route) ?? 0) + 1);
    return counts;
  }
}

/** The next release beside this one: the server (sources, and the build when there is one), migrations + 1. */
function nextRelease(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'release-next-'));
  for (const part of [
    'package.json',
    'tsconfig.json',
    'drizzle',
    'src/server',
    'src/shared',
    'dist/server',
    'dist/shared',
  ]) {
    if (existsSync(path.join(repoRoot, part)))
      cpSync(path.join(repoRoot, part), path.join(root, part), { recursive: true });
  }
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  const journalFile = path.join(root, 'drizzle/meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
    entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }>;
  };
  const last = journal.entries.at(-1);
  if (!last) throw new Error('no migrations in drizzle/meta/_journal.json');
  const tag = `${String(last.idx + 1).padStart(4, '0')}_rolling_deploy_note`;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag });
  writeFileSync(journalFile, JSON.stringify(journal, null, 2));
  writeFileSync(path.join(root, 'drizzle', `${tag}.sql`), MIGRATION_SQL);
  return root;
}

/** The built site when there is one (`npm test` builds first); otherwise three pages served the same way. */
function siteDir(scratch: string): string {
  const built = path.join(repoRoot, 'dist/client');
  if (existsSync(path.join(built, SITE_MANIFEST))) return built;
  const dir = path.join(scratch, 'site');
  mkdirSync(dir);
  const manifest: SiteManifest = {
    pages: { '/': 'index.html', '/Contact': 'Contact.html', '/utility-tools': 'utility-tools.html' },
    notFound: '404.html',
  };
  writeFileSync(path.join(dir, SITE_MANIFEST), JSON.stringify(manifest));
  for (const file of [...Object.values(manifest.pages), manifest.notFound])
    writeFileSync(path.join(dir, file), `<!doctype html><title>${file}</title>`);
  return dir;
}

const PAGES = ['/', '/Contact', '/utility-tools'];

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: TestSmtpServer;
let shop: TestApp;
let proxy: HaproxyProcess;
/** The next release's folder. */
let release: string;
let scratch: string;
const processes: ServerProcess[] = [];
const traffic = new Traffic();
const rolls: Roll[] = [];
/** Each purchase that verify-payment confirmed: its buyer and Razorpay order. */
const bought: Array<{ userId: string; email: string; razorpayOrderId: string }> = [];
/** Whether the next release's column existed before the deploy, and once its first instance had started. */
const migrated = { before: true, afterFirstStart: false };
let mail: ReceivedMail[] = [];
let runMs = 0;

beforeAll(async () => {
  const began = Date.now();
  scratch = mkdtempSync(path.join(tmpdir(), 'rolling-deploy-'));
  database = await createTestDatabase();
  if (!database.url) throw new Error('the rolling deploy needs PostgreSQL');
  smtp = await new TestSmtpServer().start();
  release = nextRelease();
  const [proxyPort, statsPort, port1, port2, razorpayPort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  proxy = new HaproxyProcess({
    proxy: proxyPort ?? 0,
    stats: statsPort ?? 0,
    app1: port1 ?? 0,
    app2: port2 ?? 0,
  });

  // Razorpay: the emulator of an app of the test's own, on the same database for the fixtures; its webhooks go to
  // the shop's address, through HAProxy.
  shop = await openTestApp({ env: { DATABASE_URL: database.url, PUBLIC_URL: proxy.url } });
  await shop.app.listen({ port: razorpayPort, host: '127.0.0.1' });
  const razorpay = shop.config.razorpay;
  const windows = (await catalogueRows(shop)).windows;
  const licensed = [await licensedPurchase(shop.ctx)];
  for (let i = 1; i < VALIDATED_LICENSES; i++)
    licensed.push(await licensedPurchase(shop.ctx, { toolId: licensed[0]?.toolId }));

  // One installation: every instance is given the same address, keys and secrets (README, deploy/shop.env.example).
  const shared = {
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://shop.example.in',
    DATABASE_URL: database.url,
    SMTP_URL: smtp.url,
    RAZORPAY_KEY_ID: razorpay.keyId,
    RAZORPAY_KEY_SECRET: razorpay.keySecret,
    RAZORPAY_WEBHOOK_SECRET: razorpay.webhookSecret ?? '',
    RAZORPAY_API_URL: `http://127.0.0.1:${razorpayPort}${EMULATOR_PREFIX}`,
    SESSION_SECRET: 'rolling-deploy-session-secret-0123456789abcdef',
    DATA_SECRET_KEY: TEST_DATA_SECRET_KEY,
    LICENSE_SIGNING_KEY: generateKeyPairSync('ed25519')
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString(),
    RELEASE_SIGNING_KEY: TEST_RELEASE_SIGNING_KEY,
    FIRM_LEGAL_NAME: 'Pinkcity Advisors LLP',
    FIRM_ADDRESS: 'MI Road, Jaipur, Rajasthan 302001',
    FIRM_GSTIN: '08AAPFP1234A1ZK',
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
    SITE_DIR: siteDir(scratch),
  };
  const instances = {
    app1: new ServerProcess(shared, port1),
    app2: new ServerProcess(shared, port2),
  };
  processes.push(instances.app1, instances.app2);
  await Promise.all([instances.app1.start(), instances.app2.start()]);
  await proxy.start();
  await Promise.all([proxy.waitFor('app1', 'UP'), proxy.waitFor('app2', 'UP')]);

  const machines = licensed.map((license) => ({
    licenseKey: license.licenseKey ?? '',
    toolId: license.toolId,
    fingerprint: fingerprint('rolling'),
  }));
  const postJson = (url: string, body: unknown) =>
    fetch(`${proxy.url}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  for (const machine of machines)
    await traffic.request('POST /api/licenses/activate', () => postJson('/api/licenses/activate', machine));

  traffic.every(EVERY_MS.page, (n) =>
    traffic.request('GET page', () => fetch(`${proxy.url}${PAGES[n % PAGES.length]}`)),
  );
  traffic.every(EVERY_MS.catalogue, () =>
    traffic.request('GET /api/alltools/', () => fetch(`${proxy.url}/api/alltools/`)),
  );
  traffic.every(EVERY_MS.validate, async (n) => {
    const response = await traffic.request('POST /api/licenses/validate', () =>
      postJson('/api/licenses/validate', machines[n % machines.length]),
    );
    const answer = (await response.json()) as { valid: boolean; code: string };
    if (answer.code !== 'VALID') throw new Error(`validate answered ${answer.code}`);
  });
  // A signed-in buyer's purchase, as the browser makes it: the CSRF cookie, the order, Razorpay's checkout (straight
  // to the emulator, as the browser goes to Razorpay), then verify-payment.
  traffic.every(EVERY_MS.purchase, async () => {
    const buyer = await createUser(shop);
    const session = (await loginAs(shop, buyer)).cookies.get('sessionid') ?? '';
    const browser = new HttpClient(proxy.url);
    browser.cookies.set('sessionid', session);
    await traffic.request('GET /api/csrf-token/', () => browser.get('/api/csrf-token/'));
    const created = await traffic.request('POST /api/create-payment/', () =>
      browser.postJson('/api/create-payment/', {
        toolId: windows.id,
        currency: 'INR',
        billingDetails: INR_BILLING,
      }),
    );
    const { order_id: razorpayOrderId } = (await created.json()) as { order_id: string };
    const paid = await fetch(`${shared.RAZORPAY_API_URL}/checkout/${razorpayOrderId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key_id: razorpay.keyId }),
    });
    if (paid.status !== 200) throw new Error(`emulator checkout: status ${paid.status}`);
    const handler = (await paid.json()) as Record<string, string>;
    await traffic.request('POST /api/verify-payment/', () =>
      browser.postJson('/api/verify-payment/', handler),
    );
    bought.push({ userId: buyer.id, email: buyer.email, razorpayOrderId });
  });

  migrated.before = await columnExists();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  // The deploy, step by step as the README gives it: one instance at a time, the next only once HAProxy has the
  // one before back.
  for (const server of ['app1', 'app2'] as const) {
    const old = instances[server];
    const signalledAt = Date.now();
    const stopped = old.stop(UNIT_STOP_TIMEOUT_MS);
    const unreadyAfterMs = await msUntilUnready(old, signalledAt);
    const servingWhileDrainingStatus = await statusOf(`${old.url}/api/alltools/`);
    await proxy.waitFor(server, 'DOWN');
    const downAfterMs = Date.now() - signalledAt;
    await stopped;
    const exitedAfterMs = Date.now() - signalledAt;
    const next = new ServerProcess(shared, old.port, { root: release });
    processes.push(next);
    instances[server] = next;
    await next.start();
    await proxy.waitFor(server, 'UP');
    rolls.push({
      server,
      signalledAt,
      unreadyAfterMs,
      servingWhileDrainingStatus,
      downAfterMs,
      exitedAfterMs,
      exitCode: old.exitCode,
      upAt: Date.now(),
    });
    if (server === 'app1') migrated.afterFirstStart = await columnExists();
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await traffic.stop();
  await shop.emulator?.settled();

  // Every email queued is sent within moments (the email test names any that is not); a little longer, so that a
  // second send of any would arrive too.
  await eventually(async () => ((await pendingMail()) === 0 ? true : undefined), 30_000).catch(
    () => undefined,
  );
  await new Promise((resolve) => setTimeout(resolve, 2500));
  mail = [...smtp.messages];
  runMs = Date.now() - began;
}, 110_000);

afterAll(async () => {
  await traffic.stop();
  await proxy?.stop();
  await Promise.all(processes.map((instance) => instance.stop()));
  await shop?.close();
  await smtp?.stop();
  await database?.close();
  if (release) rmSync(release, { recursive: true, force: true });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** An answer's status, 0 when there is none (the connection was refused or reset). */
const statusOf = (url: string) =>
  fetch(url).then(
    (response) => response.status,
    () => 0,
  );

/**
 * From `since` (SIGTERM) to the instance's own /api/ready answering 503; infinite if it does not before it stops
 * listening. A check sent just before the signal may still answer 200 after it, late on a busy machine.
 */
async function msUntilUnready(instance: ServerProcess, since: number): Promise<number> {
  for (;;) {
    const status = await statusOf(`${instance.url}/api/ready`);
    if (status === 503) return Date.now() - since;
    if (status !== 200) break;
  }
  return Number.POSITIVE_INFINITY;
}

async function columnExists(): Promise<boolean> {
  const result = await shop.ctx.db.execute(
    sql`select 1 from information_schema.columns where table_name = 'orders' and column_name = 'rolling_deploy_note'`,
  );
  return (result as unknown as { rows: unknown[] }).rows.length === 1;
}

async function pendingMail(): Promise<number> {
  const rows = await shop.ctx.db.select({ status: outbox.status }).from(outbox);
  return rows.filter((row) => row.status !== 'sent').length;
}

describe('a rolling deploy behind HAProxy (deploy/)', () => {
  it('fails no request, while each instance drains, restarts on the next release and comes back', () => {
    const counts = traffic.countBetween(0, Number.POSITIVE_INFINITY);
    const routes = Object.fromEntries(counts);
    console.log(
      `rolling deploy: ${traffic.answered.length} requests through HAProxy (${JSON.stringify(routes)}), ` +
        `${traffic.failures.length} failed, ${bought.length} orders, ${mail.length} emails, ` +
        `${(shop.emulator?.sentWebhooks ?? []).length} Razorpay webhooks; ` +
        `restarts ${JSON.stringify(rolls.map(({ signalledAt: _, upAt: __, ...roll }) => roll))}; ${runMs} ms`,
    );
    expect(traffic.failures).toEqual([]);
    for (const roll of rolls) {
      expect(roll.exitCode, `${roll.server} stopped cleanly`).toBe(0);
      // Unready at once (within the 5 s drain, which a starved machine stretches), still answering, out of HAProxy
      // within its 2 checks, then closed after the drain.
      expect(roll.unreadyAfterMs).toBeLessThan(5000);
      expect(roll.servingWhileDrainingStatus).toBe(200);
      expect(roll.downAfterMs).toBeLessThan(roll.exitedAfterMs);
      // Requests of every kind went on between SIGTERM and the successor's UP.
      const during = traffic.countBetween(roll.signalledAt, roll.upAt);
      for (const route of [
        'GET page',
        'GET /api/alltools/',
        'POST /api/licenses/validate',
        'POST /api/verify-payment/',
      ])
        expect(during.get(route) ?? 0, `${route} while ${roll.server} restarted`).toBeGreaterThan(0);
    }
    expect(rolls.map((roll) => roll.server)).toEqual(['app1', 'app2']);
    // No instance logged an error (pino's level 50 and above), the stopped ones included.
    for (const instance of processes) expect(instance.output).not.toMatch(/"level":(50|60)/);
  });

  it('loses and doubles no order: every payment Razorpay took is one paid order with one purchase', async () => {
    expect(bought.length).toBeGreaterThanOrEqual(10);
    const captured = [...(shop.emulator?.payments.values() ?? [])].filter(
      (payment) => payment.status === 'captured',
    );
    expect(new Set(captured.map((payment) => payment.order_id))).toEqual(
      new Set(bought.map((purchase) => purchase.razorpayOrderId)),
    );
    const rows = await shop.ctx.db
      .select({ id: orders.id, razorpayOrderId: orders.razorpayOrderId, status: orders.status })
      .from(orders)
      .where(
        inArray(
          orders.userId,
          bought.map((purchase) => purchase.userId),
        ),
      );
    expect(rows.map((row) => row.razorpayOrderId).sort()).toEqual(
      bought.map((purchase) => purchase.razorpayOrderId).sort(),
    );
    expect(rows.every((row) => row.status === 'paid')).toBe(true);
    const made = await shop.ctx.db
      .select({ orderId: purchases.orderId })
      .from(purchases)
      .where(
        inArray(
          purchases.orderId,
          rows.map((row) => row.id),
        ),
      );
    expect(made.map((purchase) => purchase.orderId).sort()).toEqual(rows.map((row) => row.id).sort());
    // Razorpay's webhooks reached an instance through HAProxy and were answered, each one.
    expect((shop.emulator?.sentWebhooks ?? []).filter((sent) => sent.status !== 200)).toEqual([]);
  });

  it('sends every email exactly once, and every buyer theirs', async () => {
    const rows = await shop.ctx.db
      .select({ id: outbox.id, kind: outbox.kind, status: outbox.status, attempts: outbox.attempts })
      .from(outbox);
    expect(rows.filter((row) => row.status !== 'sent')).toEqual([]);
    const sends = new Map<string, number>();
    for (const message of mail) {
      const id = /^<outbox-(\d+)\./.exec(message.headers['message-id'] ?? '')?.[1] ?? 'none';
      sends.set(id, (sends.get(id) ?? 0) + 1);
    }
    expect(Object.fromEntries(sends)).toEqual(Object.fromEntries(rows.map((row) => [String(row.id), 1])));
    for (const { email } of bought)
      expect(
        mail.some((message) => message.to.includes(email)),
        email,
      ).toBe(true);
  });

  it('applies the new release’s migration once, at the first new instance’s start, while the old one serves', async () => {
    expect(migrated).toEqual({ before: false, afterFirstStart: true });
    expect(await columnExists()).toBe(true);
    const applied = await shop.ctx.db.execute(
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    const journal = JSON.parse(readFileSync(path.join(release, 'drizzle/meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    expect((applied as unknown as { rows: Array<{ count: number }> }).rows[0]?.count).toBe(
      journal.entries.length,
    );
  });
});
