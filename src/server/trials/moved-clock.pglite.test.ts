import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PublicKey, verifyLicenseFile } from '../../../packages/license-client/src/index';
import { fingerprint } from '../../../test/support/license-fixtures';
import { HttpClient, ServerProcess } from '../../../test/support/processes';
import { INR_BILLING } from '../../../test/support/shop-fixtures';
import { hashSessionId } from '../auth/session';
import { openDatabase } from '../db';
import { sessions, users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';

/**
 * A 14-day trial against the real server process whose clock libfaketime moves (TOOLCHAIN.md): the server's own
 * Date and its embedded database's both read the offset from a file, so the test moves the server 15 days ahead
 * without touching the test's clock or the server's timers. Everything goes over real HTTP, as a tool and a
 * browser would: the license API, the trial, the purchase through the Razorpay emulator.
 */
const FAKETIME_LIBRARY = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';
const DAY_MS = 24 * 60 * 60 * 1000;

let server: ServerProcess;
let offsetFile: string;
let toolId: string;
const accounts: Array<{ email: string; sessionId: string }> = [];

/**
 * Moves the server's clock `days` ahead and waits until it answers with that time in its Date header: libfaketime
 * re-reads the file at most once a second, and a loaded machine may take longer to get there.
 */
async function moveServerClock(days: number): Promise<void> {
  writeFileSync(offsetFile, `+${days}d`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answered = await fetch(`${server.url}/api/health`);
    const serverNow = Date.parse(answered.headers.get('date') ?? '');
    if (serverNow > Date.now() + (days - 1) * DAY_MS) return;
    if (Date.now() > deadline) throw new Error(`the server's clock did not move ${days} days`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function browserOf(account: { sessionId: string }): Promise<HttpClient> {
  const browser = new HttpClient(server.url);
  browser.cookies.set('sessionid', account.sessionId);
  await browser.get('/api/csrf-token/');
  return browser;
}

/** The key in the newest trial email to `email`, as the development mail folder holds it. */
async function trialKeyFor(email: string): Promise<string> {
  const folder = path.join(server.dataDir, 'mail');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = existsSync(folder)
      ? readdirSync(folder)
          .filter((name) => name.endsWith('-trial-delivery.json'))
          .map(
            (name) =>
              JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as { to: string; text: string },
          )
          .filter((mail) => mail.to === email)
      : [];
    const key = /[23456789A-Z]{5}(-[23456789A-Z]{5}){3}/.exec(mails.at(-1)?.text ?? '')?.[0];
    if (key) return key;
    if (Date.now() > deadline) throw new Error(`no trial email to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const licenseCall = async (operation: 'activate' | 'validate', body: Record<string, unknown>) =>
  (
    await fetch(`${server.url}/api/licenses/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json();

const payloadOf = (licenseFile: string) =>
  JSON.parse(Buffer.from(JSON.parse(licenseFile).payload, 'base64').toString('utf8'));

beforeAll(async () => {
  // Without the library the server's clock never moves, and the test would only time out waiting for it.
  if (!existsSync(FAKETIME_LIBRARY))
    throw new Error(`libfaketime is not installed (${FAKETIME_LIBRARY}): apt-get install libfaketime`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trial-clock-'));
  offsetFile = path.join(dataDir, 'faketime-offset');
  writeFileSync(offsetFile, '+0d');
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const [tool] = await database.db
    .insert(tools)
    .values({
      name: 'Trial Clock Tool',
      description: 'A tool with a 14-day free trial.',
      device: 'Windows',
      priceInrPaise: 99_900,
      trialDays: 14,
    })
    .returning({ id: tools.id });
  toolId = tool?.id ?? '';
  for (const name of ['first', 'second']) {
    const email = `trial-${name}-${randomBytes(3).toString('hex')}@example.com`;
    const [user] = await database.db
      .insert(users)
      .values({ name: `Trial ${name}`, email, phone: '+919876543210', passwordHash: 'fixture-cannot-log-in' })
      .returning({ id: users.id });
    const sessionId = randomBytes(32).toString('base64url');
    // Long enough to outlive the moved clock: the test is about the trial, not the session.
    await database.db.insert(sessions).values({
      idHash: hashSessionId(sessionId),
      userId: user?.id ?? '',
      expiresAt: new Date(Date.now() + 90 * DAY_MS),
    });
    accounts.push({ email, sessionId });
  }
  await database.close();
  server = new ServerProcess(
    {
      NODE_ENV: 'development',
      LD_PRELOAD: FAKETIME_LIBRARY,
      FAKETIME_TIMESTAMP_FILE: offsetFile,
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
      FAKETIME_CACHE_DURATION: '1',
    },
    0,
    { dataDir },
  );
  await server.start(120_000);
}, 180_000);
afterAll(() => server?.stop());

describe('a 14-day trial under the server’s moved clock', () => {
  it('answers TRIAL, refuses the machine to a second account, EXPIRED 15 days on, VALID once bought', async () => {
    const [first, second] = accounts;
    if (!first || !second) throw new Error('accounts');
    const buyer = await browserOf(first);
    const started = await buyer.postJson('/api/trials/', { toolId });
    expect(started.status).toBe(200);
    const { expiresAt } = (await started.json()) as { expiresAt: string };
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(14 * DAY_MS - 60_000);
    expect((await buyer.postJson('/api/trials/', { toolId })).status).toBe(409);

    const key = await trialKeyFor(first.email);
    const machine = fingerprint('trial-pc');
    const activated = await licenseCall('activate', { licenseKey: key, toolId, fingerprint: machine });
    expect(activated).toMatchObject({ valid: true, code: 'TRIAL', expiresAt });
    const publicKeys = (
      (await (await fetch(`${server.url}/api/licenses/public-keys`)).json()) as {
        keys: PublicKey[];
      }
    ).keys;
    const checked = verifyLicenseFile(activated.licenseFile, publicKeys, { fingerprint: machine, toolId });
    expect(checked).toMatchObject({ valid: true, payload: { status: 'trial', expiresAt } });
    expect(Date.parse(payloadOf(activated.licenseFile).refreshBefore)).toBeLessThanOrEqual(
      Date.parse(expiresAt),
    );
    expect(await licenseCall('validate', { licenseKey: key, toolId, fingerprint: machine })).toMatchObject({
      valid: true,
      code: 'TRIAL',
      expiresAt,
    });

    const other = await browserOf(second);
    expect((await other.postJson('/api/trials/', { toolId })).status).toBe(200);
    const otherKey = await trialKeyFor(second.email);
    expect(await licenseCall('activate', { licenseKey: otherKey, toolId, fingerprint: machine })).toEqual({
      valid: false,
      code: 'TRIAL_USED',
    });

    await moveServerClock(15);
    expect(await licenseCall('validate', { licenseKey: key, toolId, fingerprint: machine })).toEqual({
      valid: false,
      code: 'EXPIRED',
    });
    // Reinstalling (activating again) does not restart it.
    expect(await licenseCall('activate', { licenseKey: key, toolId, fingerprint: machine })).toMatchObject({
      valid: false,
      code: 'EXPIRED',
    });

    // Bought through the Razorpay emulator's checkout, as the browser does.
    const order = (await (
      await buyer.postJson('/api/create-payment/', { toolId, currency: 'INR', billingDetails: INR_BILLING })
    ).json()) as { order_id: string; razorpay_key_id: string };
    const paid = await fetch(`${server.url}/emulator/razorpay/checkout/${order.order_id}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key_id: order.razorpay_key_id }),
    });
    expect((await buyer.postJson('/api/verify-payment/', await paid.json())).status).toBe(200);

    const bought = await licenseCall('validate', { licenseKey: key, toolId, fingerprint: machine });
    expect(bought).toMatchObject({ valid: true, code: 'VALID' });
    expect(payloadOf(bought.licenseFile)).toMatchObject({
      status: 'active',
      activationId: activated.activation.id,
    });
    expect(payloadOf(bought.licenseFile).expiresAt).toBeUndefined();
    const orders = (await (await buyer.get('/api/orders/')).json()) as Array<{
      invoiceNumber: string | null;
    }>;
    expect(orders).toHaveLength(1);
    expect(orders[0]?.invoiceNumber).toMatch(/^PCA\/\d\d-\d\d\/\d{5}$/);
  }, 120_000);
});
