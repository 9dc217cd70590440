/**
 * `npm run soak -- --minutes 20 [--parallel]`: the production server (the built JavaScript, NODE_ENV=production) under a steady
 * mixed load well below saturation for that long, on PGlite and again on PostgreSQL when BENCH_DATABASE_URL (or
 * DATABASE_URL) is set. What a shop sees on a busy day, all at once: page views, catalogue reads, a fleet of
 * installed tools validating their licenses and asking for updates, the machines of a floating tool renewing their
 * leases with heartbeats (decision 049), a signup and a purchase through the Razorpay
 * emulator every few seconds (mail to a real SMTP server, through the outbox), a contact message every minute, and
 * the server's own jobs on their normal schedules (mail, retention, snapshots). And issue 69's paths: the machines of
 * a tool rolling a release out to half of them reading their update feeds (the appcast as WinSparkle asks, Velopack's
 * releases.win.json, each also revalidated with its ETag), and signed-in buyers upgrading an edition, renewing their
 * updates (both paid at the emulator) and activating a computer without internet, each every ten seconds or so.
 *
 * Reports each minute the server's resident memory, each route's p50/p99, errors, the outbox's depth and the
 * database's size, and checks the budgets (docs/performance.md#soak):
 * - no error (every answer has the status its request expects; no connection fails);
 * - resident memory at the end at most 10 % above its value after the first window;
 * - each route's p99 over the last window at most 1.25× its p99 over the first (after a warm-up);
 * - the outbox drained once the load stops.
 * The window is 5 minutes, or a quarter of a shorter run. Writes reports/soak.json and reports/soak.svg (memory and
 * p99 over time: a leak is a line that climbs). Exits 1 when a budget is missed.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { OfflineActivation, type OfflineState, type PublicKey } from '../packages/license-client/src/index';
import { registerRouteSchemas } from '../src/server/http/route-schemas';
import { registerRazorpayEmulator } from '../src/server/payments/emulator/index';
import { EMULATOR_PREFIX } from '../src/server/payments/gateway';
import { HttpClient } from '../test/support/processes';
import { TestSmtpServer } from '../test/support/smtp';
import { appcastFile, feedPath, velopackFileOf, WINSPARKLE } from './bench-release-day';
import {
  type ActivatedLicense,
  ensureBuilt,
  type FleetMachine,
  type ProductionServer,
  startProductionServer,
} from './support/prod-server';
import { emptySoakShop, type SoakBuyer, type SoakShop, soakShopSeed } from './support/soak-shop';

const root = path.resolve(import.meta.dirname, '..');
const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const MINUTES = Number(argument('--minutes') ?? 20);
if (!Number.isInteger(MINUTES) || MINUTES < 2 || MINUTES > 240) {
  console.error('--minutes must be a whole number from 2 to 240');
  process.exit(2);
}
const WINDOW_MINUTES = Math.min(5, Math.max(1, Math.floor(MINUTES / 4)));
const WARM_UP_S = 30;
const BUDGET = { memoryGrowth: 0.1, p99Growth: 1.25 };
const KEY = { id: 'rzp_test_soak', secret: 'soak_key_secret', webhook: 'soak_webhook_secret' };
const METRICS_TOKEN = 'soak-metrics-token-0123456789';
const PASSWORD = 'Correct horse 42';

/**
 * Requests a second of each steady stream: well below what one instance answers (hundreds, not thousands). The feed
 * reads are four routes in turn, 5 a second each: at 1 a second (the rate until 7 December) a route's p99 over a
 * 5-minute window was its third-slowest of 300 answers, and three of them "drifted" 1.3–1.5× in a 20-minute soak
 * while their neighbours moved the other way. A release day's traffic is mostly feeds anyway.
 */
const RATES = { page: 20, catalogue: 10, validate: 25, updateCheck: 4, heartbeat: 5, feed: 20 };
/**
 * Machines of a floating tool (decision 049), one license each, sending heartbeats in turn: at 5 a second each sends
 * one every 80 s, well inside the default lease (10 minutes and 10 of grace) and the per-key limit.
 */
const FLOATING_MACHINES = 400;
const SIGNUP_EVERY_MS = 5_000;
const CONTACT_EVERY_MS = 60_000;
/**
 * Issue 69's paths: machines of a tool rolling 1.1.0 out to half of them read their feeds (`RATES.feed`), and
 * signed-in buyers upgrade, renew and activate a computer without internet, each now and then (milliseconds between
 * two, drawn from the range).
 */
const FEED_MACHINES = 3_000;
/** The orders that change a seeded buyer's license: the request's field naming it, the buyers' addresses (10.N). */
const LICENSE_CHANGES = {
  upgrade: { everyMs: [10_000, 20_000], field: 'upgradeLicenseId', network: 66 },
  renewal: { everyMs: [10_000, 20_000], field: 'renewLicenseId', network: 65 },
} as const;
const OFFLINE_EVERY_MS = [8_000, 12_000] as const;
/** One buyer for each upgrade, renewal or offline activation the run can make at the fastest, and a few spare. */
const BUYERS = Math.ceil((WARM_UP_S + MINUTES * 60) / 8) + 10;
const BILLING = {
  address: 'MI Road, Jaipur',
  state: 'Rajasthan',
  country: 'India',
  gstin: '',
  currency: 'INR',
} as const;

type Minute = { latencies: Map<string, number[]>; errors: number };
type Probe = { atS: number; rssMb: number; outboxPending: number; databaseMb: number };

function percentile(values: number[], share: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

function folderBytes(folder: string): number {
  return readdirSync(folder, { withFileTypes: true }).reduce((total, entry) => {
    const full = path.join(folder, entry.name);
    return total + (entry.isDirectory() ? folderBytes(full) : statSync(full).size);
  }, 0);
}

class Recorder {
  /** When the measured minutes began (after the warm-up). */
  started = Date.now();
  readonly minutes: Minute[] = [];
  readonly errors: Array<{ atS: number; route: string; detail: string }> = [];
  recording = false;

  private minute(): Minute {
    const index = Math.floor((Date.now() - this.started) / 60_000);
    while (this.minutes.length <= index) this.minutes.push({ latencies: new Map(), errors: 0 });
    return this.minutes[index] as Minute;
  }

  /** Times one request; anything but the expected status is an error. */
  async time(route: string, expected: number, send: () => Promise<Response>): Promise<Response | undefined> {
    const began = performance.now();
    try {
      const response = await send();
      const ms = performance.now() - began;
      if (response.status !== expected) {
        this.fail(route, `status ${response.status}: ${(await response.text()).slice(0, 200)}`);
        return undefined;
      }
      if (this.recording) {
        const minute = this.minute();
        const list = minute.latencies.get(route) ?? [];
        list.push(ms);
        minute.latencies.set(route, list);
      }
      return response;
    } catch (error) {
      this.fail(route, String(error));
      return undefined;
    }
  }

  fail(route: string, detail: string) {
    if (!this.recording) return;
    this.minute().errors += 1;
    if (this.errors.length < 50)
      this.errors.push({ atS: Math.round((Date.now() - this.started) / 1000), route, detail });
  }
}

/** Starts `fire` `perSecond` times a second until `stop()`; never more than 200 of them in flight at once. */
function steady(perSecond: number, fire: (n: number) => Promise<unknown>, overload: () => void) {
  let n = 0;
  let inFlight = 0;
  const timer = setInterval(
    () => {
      if (inFlight >= 200) return overload();
      inFlight += 1;
      n += 1;
      void fire(n).finally(() => {
        inFlight -= 1;
      });
    },
    Math.max(1, Math.round(1000 / perSecond)),
  );
  return () => clearInterval(timer);
}

/** Starts `fire` again and again until `stop()`, each time after a pause drawn from `[fromMs, toMs]`. */
function nowAndThen([fromMs, toMs]: readonly [number, number], fire: (n: number) => Promise<unknown>) {
  let n = 0;
  let timer: NodeJS.Timeout | undefined;
  const next = () => {
    timer = setTimeout(
      () => {
        n += 1;
        void fire(n);
        next();
      },
      fromMs + Math.random() * (toMs - fromMs),
    );
  };
  next();
  return () => clearTimeout(timer);
}

/**
 * An order placed, paid at the emulator and reported by the browser, as Razorpay Checkout does. A kind of order
 * other than a first purchase (`kind`) has its own rows.
 */
async function placeAndPay(
  browser: HttpClient,
  razorpayApi: string,
  recorder: Recorder,
  order: Record<string, unknown>,
  kind?: string,
) {
  const row = (route: string) => (kind ? `${route} (${kind})` : route);
  const created = await recorder.time(row('POST /api/create-payment/'), 200, () =>
    browser.postJson('/api/create-payment/', order),
  );
  if (!created) return;
  const { order_id: orderId } = (await created.json()) as { order_id: string };
  const paid = await recorder.time(row('emulator checkout pay'), 200, () =>
    fetch(`${razorpayApi}/checkout/${orderId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key_id: KEY.id }),
    }),
  );
  if (!paid) return;
  const handler = (await paid.json()) as Record<string, string>;
  await recorder.time(row('POST /api/verify-payment/'), 200, () =>
    browser.postJson('/api/verify-payment/', handler),
  );
}

/** A seeded buyer's browser, signed in, with the CSRF token its visit is given; undefined when that failed. */
async function signedInBrowser(
  server: ProductionServer,
  buyer: SoakBuyer,
  address: string,
  recorder: Recorder,
  kind: string,
): Promise<HttpClient | undefined> {
  const browser = new HttpClient(server.url, { 'x-forwarded-for': address, 'cf-ipcountry': 'IN' });
  const [name = '', value = ''] = buyer.cookie.split('=');
  browser.cookies.set(name, value);
  const csrf = await recorder.time(`GET /api/csrf-token/ (${kind})`, 200, () =>
    browser.get('/api/csrf-token/'),
  );
  return csrf ? browser : undefined;
}

/** The `n`th buyer of a stream's own, or a failure when the run outlasted them (BUYERS is too small). */
function buyerFor(buyers: SoakBuyer[], n: number, recorder: Recorder, kind: string): SoakBuyer | undefined {
  const buyer = buyers[n - 1];
  if (!buyer) recorder.fail(kind, `no seeded buyer left for the ${n}th`);
  return buyer;
}

/**
 * A computer without internet (issue 67): its tool makes the request, the buyer posts it on My Tools and downloads
 * the response file, which the tool accepts (signed by the shop, for this computer) or the soak counts an error.
 */
async function offlineActivation(
  server: ProductionServer,
  buyer: SoakBuyer,
  publicKeys: PublicKey[],
  recorder: Recorder,
  n: number,
) {
  const browser = await signedInBrowser(
    server,
    buyer,
    `10.64.${(n >> 8) & 255}.${n & 255}`,
    recorder,
    'offline',
  );
  if (!browser) return;
  let state: OfflineState | undefined;
  const computer = new OfflineActivation({
    publicKeys,
    store: {
      load: async () => state,
      save: async (saved) => {
        state = saved;
      },
    },
  });
  const request = await computer.createOfflineRequest({
    toolId: buyer.toolId,
    fingerprint: `soak-offline-${n.toString().padStart(8, '0')}`,
    name: `Soak office PC ${n}`,
  });
  const answered = await recorder.time('POST /api/my-licenses/:licenseId/offline-activations', 200, () =>
    browser.postJson(
      `/api/my-licenses/${buyer.licenseId}/offline-activations`,
      { request },
      { accept: 'application/octet-stream' },
    ),
  );
  if (!answered) return;
  const checked = await computer.activateOffline(await answered.text());
  if (!checked.valid) recorder.fail('offline response file', `refused by the tool: ${checked.reason}`);
}

/**
 * The machines of the staged rollout reading their feeds, four requests a machine in turn: the appcast as WinSparkle
 * asks for it, then again with the ETag it was given (304), and Velopack's releases.win.json the same two ways.
 */
function feedReads(server: ProductionServer, feed: SoakShop['feed'], recorder: Recorder) {
  const etags = new Map<string, string>();
  return async (n: number) => {
    const index = Math.floor(n / 4) % feed.fleet.length;
    const machine = feed.fleet[index] as FleetMachine;
    const appcast = n % 4 < 2;
    const address = feedPath(machine, appcast ? appcastFile : velopackFileOf(feed, machine));
    // The second of each pair revalidates, if the first has been answered by then.
    const etag = n % 2 === 1 ? etags.get(address) : undefined;
    etags.delete(address);
    const route = `GET /api/updates/:token/${appcast ? appcastFile : 'releases.win.json'}${etag ? ' (If-None-Match: 304)' : ''}`;
    const response = await recorder.time(route, etag ? 304 : 200, () =>
      fetch(`${server.url}${address}`, {
        headers: {
          'x-forwarded-for': `10.55.${(index >> 8) & 255}.${index & 255}`,
          ...(appcast ? { 'user-agent': WINSPARKLE } : {}),
          ...(etag ? { 'if-none-match': etag } : {}),
        },
      }),
    );
    if (!response) return;
    await response.arrayBuffer();
    if (etag) return;
    const given = response.headers.get('etag');
    if (given) etags.set(address, given);
    else recorder.fail(route, 'a feed answered without an ETag');
  };
}

/** A buyer's whole first visit: signup with the emailed code, then a purchase paid at the emulator. */
async function signupAndPurchase(
  server: ProductionServer,
  smtp: TestSmtpServer,
  razorpayApi: string,
  toolId: string,
  recorder: Recorder,
  n: number,
) {
  const address = `10.77.${(n >> 8) & 255}.${n & 255}`;
  const browser = new HttpClient(server.url, { 'x-forwarded-for': address, 'cf-ipcountry': 'IN' });
  const email = `soak-buyer-${Date.now().toString(36)}-${n}@example.com`;
  const name = `Soak Buyer ${n}`;
  if (!(await recorder.time('GET /api/csrf-token/', 200, () => browser.get('/api/csrf-token/')))) return;
  const form = { name, email };
  if (
    !(await recorder.time('POST /api/auth/send-otp/', 200, () => browser.post('/api/auth/send-otp/', form)))
  )
    return;
  const mail = await smtp.waitFor((each) => each.to.includes(email), 30_000).catch(() => undefined);
  const otp = mail ? /^\s+(\d{4,6})$/m.exec(mail.text)?.[1] : undefined;
  if (!otp) return recorder.fail('signup code email', `no code mailed to ${email}`);
  const signup = { name, email, phone: '+919876543210', password: PASSWORD, otp };
  const signedUp = await recorder.time('POST /api/auth/initiate-signup/', 200, () =>
    browser.post('/api/auth/initiate-signup/', signup),
  );
  if (!signedUp) return;
  await placeAndPay(browser, razorpayApi, recorder, { toolId, currency: 'INR', billingDetails: BILLING });
}

async function outboxPending(server: ProductionServer): Promise<number> {
  const response = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await response.text();
  return Number(/^mail_outbox_messages\{status="pending"\} (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

async function soakDatabase(databaseUrl: string | undefined) {
  const smtp = await new TestSmtpServer().start();
  const razorpay = Fastify({ logger: false });
  registerRouteSchemas(razorpay);
  const emulatorOptions = {
    keyId: KEY.id,
    keySecret: KEY.secret,
    webhookSecret: KEY.webhook,
    webhookUrl: undefined as string | undefined,
  };
  await registerRazorpayEmulator(razorpay, {
    ...emulatorOptions,
    prefix: EMULATOR_PREFIX.replace('/razorpay', ''),
  });
  await razorpay.listen({ port: 0, host: '127.0.0.1' });
  const razorpayPort = (razorpay.server.address() as { port: number }).port;
  const razorpayApi = `http://127.0.0.1:${razorpayPort}${EMULATOR_PREFIX}`;
  const shop = emptySoakShop();
  const server = await startProductionServer({
    databaseUrl,
    licenses: 2_000,
    floatingLicenses: FLOATING_MACHINES,
    seed: soakShopSeed(shop, { feedMachines: FEED_MACHINES, buyers: BUYERS }),
    env: {
      SMTP_URL: smtp.url,
      RAZORPAY_API_URL: razorpayApi,
      RAZORPAY_KEY_ID: KEY.id,
      RAZORPAY_KEY_SECRET: KEY.secret,
      RAZORPAY_WEBHOOK_SECRET: KEY.webhook,
      METRICS_TOKEN,
    },
  });
  emulatorOptions.webhookUrl = `${server.url}/api/razorpay/webhook/`;
  const postgres = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
  await postgres?.connect();
  const databaseMb = async () =>
    Math.round(
      (postgres
        ? Number((await postgres.query('select pg_database_size(current_database()) as size')).rows[0]?.size)
        : folderBytes(path.join(server.dataDir, 'pglite'))) /
        (1024 * 1024),
    );

  const recorder = new Recorder();
  const catalogue = (await (await fetch(`${server.url}/api/alltools/`)).json()) as Array<{
    _id: string;
    comingSoon: boolean;
    priceINR: number;
  }>;
  const forSale = catalogue.find((tool) => !tool.comingSoon && tool.priceINR > 0);
  if (!forSale) throw new Error('the catalogue has no tool for sale');
  const fleet: ActivatedLicense[] = server.licenses;
  const floating: ActivatedLicense[] = server.floatingLicenses;
  const pages = ['/', '/utility-tools', '/Contact', '/OurTeam'];
  const stops: Array<() => void> = [];
  let overloaded = 0;
  const overload = () => {
    overloaded += 1;
  };
  const json = (body: unknown, n: number) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.88.${(n >> 8) & 255}.${n & 255}` },
    body: JSON.stringify(body),
  });
  // Each floating machine takes its lease before the load starts (the reference client activates, then beats).
  for (const [n, machine] of floating.entries()) {
    const response = await fetch(`${server.url}/api/licenses/activate`, json(machine, 30_000 + n));
    const answer = (await response.json()) as { valid?: boolean; code?: string };
    if (!answer.valid) throw new Error(`a floating machine could not take its lease: ${answer.code}`);
  }
  stops.push(
    steady(
      RATES.heartbeat,
      (n) => {
        const machine = floating[n % floating.length] as ActivatedLicense;
        return recorder.time('POST /api/licenses/heartbeat', 200, async () => {
          const response = await fetch(
            `${server.url}/api/licenses/heartbeat`,
            json(machine, 30_000 + (n % floating.length)),
          );
          // A heartbeat that renews nothing (the lease was lost) answers 200 too: the soak counts it as an error.
          const answer = (await response.clone().json()) as { valid?: boolean; leaseExpiresAt?: string };
          if (response.status === 200 && !(answer.valid && answer.leaseExpiresAt))
            return new Response(JSON.stringify(answer), { status: 409 });
          return response;
        });
      },
      overload,
    ),
    steady(
      RATES.page,
      (n) =>
        recorder.time('GET page', 200, () =>
          fetch(`${server.url}${pages[n % pages.length]}`, { headers: { 'accept-encoding': 'br, gzip' } }),
        ),
      overload,
    ),
    steady(
      RATES.catalogue,
      () => recorder.time('GET /api/alltools/', 200, () => fetch(`${server.url}/api/alltools/`)),
      overload,
    ),
    steady(
      RATES.validate,
      (n) => {
        const license = fleet[n % fleet.length] as ActivatedLicense;
        return recorder.time('POST /api/licenses/validate', 200, () =>
          fetch(`${server.url}/api/licenses/validate`, json(license, n % fleet.length)),
        );
      },
      overload,
    ),
    steady(
      RATES.updateCheck,
      (n) => {
        const license = fleet[(n * 7) % fleet.length] as ActivatedLicense;
        return recorder.time('POST /api/licenses/update-check', 200, () =>
          fetch(
            `${server.url}/api/licenses/update-check`,
            json({ ...license, platform: 'windows', arch: 'x64', version: '1.0.0' }, (n * 7) % fleet.length),
          ),
        );
      },
      overload,
    ),
  );
  stops.push(steady(RATES.feed, feedReads(server, shop.feed, recorder), overload));
  const publicKeys = (
    (await (await fetch(`${server.url}/api/licenses/public-keys`)).json()) as { keys: PublicKey[] }
  ).keys;
  const changes = { upgrade: 0, renewal: 0, offline: 0 };
  for (const [kind, { everyMs, field, network }] of Object.entries(LICENSE_CHANGES)) {
    const stream = kind as keyof typeof LICENSE_CHANGES;
    stops.push(
      nowAndThen(everyMs, async (n) => {
        const buyer = buyerFor(shop[stream], n, recorder, kind);
        const address = `10.${network}.${(n >> 8) & 255}.${n & 255}`;
        const browser = buyer && (await signedInBrowser(server, buyer, address, recorder, kind));
        if (!buyer || !browser) return;
        changes[stream] = n;
        const order = { [field]: buyer.licenseId, currency: 'INR', billingDetails: BILLING };
        await placeAndPay(browser, razorpayApi, recorder, order, kind);
      }),
    );
  }
  stops.push(
    nowAndThen(OFFLINE_EVERY_MS, async (n) => {
      const buyer = buyerFor(shop.offline, n, recorder, 'offline activation');
      if (!buyer) return;
      changes.offline = n;
      await offlineActivation(server, buyer, publicKeys, recorder, n);
    }),
  );
  let buyers = 0;
  const signups = setInterval(() => {
    buyers += 1;
    void signupAndPurchase(server, smtp, razorpayApi, forSale._id, recorder, buyers);
  }, SIGNUP_EVERY_MS);
  let messages = 0;
  const contact = async () => {
    messages += 1;
    const n = messages;
    // As the contact page sends it: with the CSRF cookie and header its visit was given (a bare POST is refused).
    const visitor = new HttpClient(server.url, { 'x-forwarded-for': `10.99.0.${n % 250}` });
    if (!(await recorder.time('GET /api/csrf-token/', 200, () => visitor.get('/api/csrf-token/')))) return;
    await recorder.time('POST /api/contact', 200, () =>
      visitor.post('/api/contact', {
        name: `Soak Visitor ${n}`,
        email: `soak-visitor-${n}@example.com`,
        relatedTo: 'Services',
        description: 'A question about bookkeeping for a small firm.',
      }),
    );
  };
  const contacts = setInterval(() => void contact(), CONTACT_EVERY_MS);

  console.log(`${server.driver}: warming up for ${WARM_UP_S} s`);
  await new Promise((resolve) => setTimeout(resolve, WARM_UP_S * 1000));
  const measuredFrom = Date.now();
  recorder.started = measuredFrom;
  recorder.recording = true;
  const probes: Probe[] = [];
  const probe = async () => {
    probes.push({
      atS: Math.round((Date.now() - measuredFrom) / 1000),
      rssMb: rssMb(server.pid),
      outboxPending: await outboxPending(server).catch(() => Number.NaN),
      databaseMb: await databaseMb(),
    });
  };
  await probe();
  for (let minute = 1; minute <= MINUTES; minute += 1) {
    const until = measuredFrom + minute * 60_000;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, until - Date.now())));
      await probe();
    }
    const last = recorder.minutes[minute - 1];
    const figures = [...(last?.latencies ?? new Map<string, number[]>())]
      .map(([route, values]) => `${route} ${percentile(values, 0.99).toFixed(0)}`)
      .join(', ');
    const now = probes.at(-1);
    console.log(
      `${server.driver} minute ${minute}: ${now?.rssMb} MB RSS, outbox ${now?.outboxPending}, database ${now?.databaseMb} MB, errors ${last?.errors ?? 0}; p99 ms: ${figures}`,
    );
  }
  recorder.recording = false;
  for (const stop of stops) stop();
  clearInterval(signups);
  clearInterval(contacts);

  // The outbox drains once the load stops: the mail worker keeps up, nothing is stuck.
  let pending = await outboxPending(server).catch(() => Number.NaN);
  for (let waited = 0; pending !== 0 && waited < 120; waited += 2) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    pending = await outboxPending(server).catch(() => Number.NaN);
  }

  const windowOf = (from: number, to: number) => recorder.minutes.slice(from, to);
  const first = windowOf(0, WINDOW_MINUTES);
  const last = windowOf(MINUTES - WINDOW_MINUTES, MINUTES);
  const routes = [...new Set(recorder.minutes.flatMap((minute) => [...minute.latencies.keys()]))].sort();
  const p99Over = (minutes: Minute[], route: string) =>
    percentile(
      minutes.flatMap((minute) => minute.latencies.get(route) ?? []),
      0.99,
    );
  const rssAt = (seconds: number) =>
    probes.reduce((best, each) => (Math.abs(each.atS - seconds) < Math.abs(best.atS - seconds) ? each : best))
      .rssMb;
  const rssAfterFirstWindow = rssAt(WINDOW_MINUTES * 60);
  const rssAtEnd = probes.at(-1)?.rssMb ?? Number.NaN;
  const errorCount = recorder.minutes.reduce((total, minute) => total + minute.errors, 0);

  const budgets = [
    { name: `no errors (${server.driver}): ${errorCount}`, ok: errorCount === 0 },
    {
      name: `load generator kept its pace (${server.driver}): ${overloaded} ticks skipped`,
      ok: overloaded === 0,
    },
    {
      name: `memory at the end ≤ ${1 + BUDGET.memoryGrowth}× after the first ${WINDOW_MINUTES} min (${server.driver}): ${rssAtEnd} MB against ${rssAfterFirstWindow} MB`,
      ok: rssAtEnd <= rssAfterFirstWindow * (1 + BUDGET.memoryGrowth),
    },
    { name: `outbox drained (${server.driver}): ${pending} pending`, ok: pending === 0 },
    ...routes
      .filter((route) => first.some((minute) => (minute.latencies.get(route)?.length ?? 0) >= 20))
      .map((route) => {
        const before = p99Over(first, route);
        const after = p99Over(last, route);
        return {
          name: `${route} p99 last ${WINDOW_MINUTES} min ≤ ${BUDGET.p99Growth}× first (${server.driver}): ${after.toFixed(1)} ms against ${before.toFixed(1)} ms`,
          ok: after <= before * BUDGET.p99Growth,
        };
      }),
  ];
  const perMinute = recorder.minutes.map((minute, index) => ({
    minute: index + 1,
    errors: minute.errors,
    routes: Object.fromEntries(
      [...minute.latencies].map(([route, values]) => [
        route,
        {
          count: values.length,
          p50: Number(percentile(values, 0.5).toFixed(1)),
          p99: Number(percentile(values, 0.99).toFixed(1)),
        },
      ]),
    ),
  }));

  await postgres?.end();
  await server.stop();
  await razorpay.close();
  await smtp.stop();
  return {
    driver: server.driver,
    minutes: MINUTES,
    windowMinutes: WINDOW_MINUTES,
    buyers,
    ...changes,
    contactMessages: messages,
    mailsDelivered: smtp.messages.length,
    probes,
    perMinute,
    errors: recorder.errors,
    budgets,
  };
}

type SoakRun = Awaited<ReturnType<typeof soakDatabase>>;

/** Memory and each route's p99 against time, one panel each per database: a leak is a line that climbs. */
function picture(runs: SoakRun[]): string {
  const routesOf = (run: SoakRun) =>
    [...new Set(run.perMinute.flatMap((minute) => Object.keys(minute.routes)))].sort();
  const legendLine = 14;
  // Tall enough for every route's name beside the p99 panel (the mix has two dozen routes).
  const panel = Math.max(220, ...runs.map((run) => routesOf(run).length * legendLine + 20));
  const width = 1160;
  const margin = { left: 60, right: 400, top: 30, bottom: 30 };
  const colours = [
    '#c2185b',
    '#1565c0',
    '#2e7d32',
    '#ef6c00',
    '#6a1b9a',
    '#00838f',
    '#5d4037',
    '#455a64',
    '#9e9d24',
  ];
  // Once the colours are used up, the next routes' lines are dashed, then dotted.
  const dashes = ['', '6 3', '2 3'];
  const styleOf = (index: number) => ({
    colour: colours[index % colours.length] as string,
    dash: dashes[Math.floor(index / colours.length) % dashes.length] as string,
  });
  const plotWidth = width - margin.left - margin.right;
  const parts: string[] = [];
  let y0 = 0;
  const axes = (title: string, top: number, maxY: number, unit: string, maxX: number) => {
    parts.push(
      `<text x="${margin.left}" y="${top + 18}" font-size="14" font-weight="600">${title}</text>`,
      `<line x1="${margin.left}" y1="${top + margin.top + panel}" x2="${margin.left + plotWidth}" y2="${top + margin.top + panel}" stroke="#888"/>`,
      `<line x1="${margin.left}" y1="${top + margin.top}" x2="${margin.left}" y2="${top + margin.top + panel}" stroke="#888"/>`,
      `<text x="${margin.left - 6}" y="${top + margin.top + 4}" font-size="11" text-anchor="end">${Math.round(maxY)} ${unit}</text>`,
      `<text x="${margin.left - 6}" y="${top + margin.top + panel}" font-size="11" text-anchor="end">0</text>`,
      `<text x="${margin.left + plotWidth}" y="${top + margin.top + panel + 16}" font-size="11" text-anchor="end">${maxX} min</text>`,
    );
  };
  const line = (
    points: Array<[number, number]>,
    top: number,
    maxX: number,
    maxY: number,
    { colour, dash }: { colour: string; dash: string },
  ) =>
    `<polyline fill="none" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''} points="${points
      .filter(([, y]) => Number.isFinite(y))
      .map(
        ([x, y]) =>
          `${(margin.left + (x / maxX) * plotWidth).toFixed(1)},${(top + margin.top + panel - (y / maxY) * panel).toFixed(1)}`,
      )
      .join(' ')}"/>`;
  for (const run of runs) {
    const maxRss = Math.max(...run.probes.map((each) => each.rssMb)) * 1.1;
    axes(`${run.driver}: resident memory (MB)`, y0, maxRss, 'MB', run.minutes);
    parts.push(
      line(
        run.probes.map((each) => [each.atS / 60, each.rssMb]),
        y0,
        run.minutes,
        maxRss,
        styleOf(0),
      ),
    );
    y0 += panel + margin.top + margin.bottom + 10;
    const routes = routesOf(run);
    // The answers that land after the last measured minute, before the load stops, start a minute of their own:
    // drawn, it ran past the axis into the legend.
    const measured = run.perMinute.filter((minute) => minute.minute <= run.minutes);
    const maxP99 =
      Math.max(...measured.flatMap((minute) => Object.values(minute.routes).map((each) => each.p99))) * 1.1;
    axes(`${run.driver}: p99 per route each minute (ms)`, y0, maxP99, 'ms', run.minutes);
    routes.forEach((route, index) => {
      const style = styleOf(index);
      const legendY = y0 + margin.top + 12 + index * legendLine;
      const legendX = margin.left + plotWidth + 10;
      parts.push(
        line(
          measured.map((minute) => [minute.minute - 0.5, minute.routes[route]?.p99 ?? Number.NaN]),
          y0,
          run.minutes,
          maxP99,
          style,
        ),
        `<line x1="${legendX}" y1="${legendY - 4}" x2="${legendX + 20}" y2="${legendY - 4}" stroke="${style.colour}" stroke-width="2"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''}/>`,
        `<text x="${legendX + 26}" y="${legendY}" font-size="11" fill="${style.colour}">${route}</text>`,
      );
    });
    y0 += panel + margin.top + margin.bottom + 10;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y0}" viewBox="0 0 ${width} ${y0}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/>${parts.join('')}</svg>\n`;
}

async function main() {
  ensureBuilt();
  const databaseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  // --parallel soaks both databases at once (each its own server, mail sink and emulator): half the wall time, and
  // each run carries the other's steady load, which the budgets (ratios within a run) allow for.
  const runs =
    databaseUrl && process.argv.includes('--parallel')
      ? await Promise.all([soakDatabase(undefined), soakDatabase(databaseUrl)])
      : [await soakDatabase(undefined)];
  if (databaseUrl && runs.length === 1) runs.push(await soakDatabase(databaseUrl));
  const budgets = runs.flatMap((run) => run.budgets);
  console.log('');
  for (const budget of budgets) console.log(`${budget.ok ? 'ok  ' : 'MISS'} ${budget.name}`);
  for (const run of runs)
    for (const error of run.errors.slice(0, 10))
      console.log(`error ${run.driver} ${error.atS} s ${error.route}: ${error.detail}`);
  await mkdir(path.join(root, 'reports'), { recursive: true });
  writeFileSync(
    path.join(root, 'reports/soak.json'),
    JSON.stringify({ at: new Date().toISOString(), rates: RATES, runs }, null, 2),
  );
  writeFileSync(path.join(root, 'reports/soak.svg'), picture(runs));
  console.log('wrote reports/soak.json and reports/soak.svg');
  process.exit(budgets.every((budget) => budget.ok) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
