import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../../test/support/app';
import { verifiedOperator } from '../../../test/support/dashboard-helpers';
import { commandLineProcessEnv, testDriver } from '../../../test/support/database';
import { openedMails } from '../../../test/support/mail';
import { runCli, ServerProcess } from '../../../test/support/processes';
import { TEST_DATA_SECRET_KEY } from '../../../test/support/settings';
import {
  buyTool,
  catalogueRows,
  createOrder,
  downloadLinkIn,
  type FixtureUser,
  loginAs,
  newBuyer,
  orderRow,
} from '../../../test/support/shop-fixtures';
import type { Tool } from '../../shared/shop';
import { SHOP_ENDPOINT_MESSAGES } from '../../shared/shop';
import { contactMessages } from '../db/schema/contact';
import { downloadTokens } from '../db/schema/downloads';
import { licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { orderEvents, orders, purchases } from '../db/schema/orders';
import { registerRouteSchemas } from '../http/route-schemas';
import { revealLicenseKey } from '../licenses/secrets-at-rest';
import { enqueueMail } from '../mail/outbox';
import { type RazorpayEmulator, registerRazorpayEmulator } from '../payments/emulator';
import { adminSocketPath, askServer } from './socket';

/**
 * The admin command line as the operator runs it: a separate process on a migrated database (PGlite files in a
 * temporary DATA_DIR, or PostgreSQL with TEST_DB=postgres), talking to a Razorpay emulator over HTTP. After each
 * command the test opens the same database with the real app and looks through the API.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const KEY_ID = 'rzp_test_emulator';

let dataDir: string;
let env: Record<string, string>;
let dropDatabase: (() => Promise<void>) | undefined;
let emulatorServer: FastifyInstance;
let emulator: RazorpayEmulator;
let emulatorUrl: string;

/** The fixtures made in beforeAll. */
let buyer: FixtureUser;
let paidOrderId: string;
let paidPaymentId: string;
let windowsToolId: string;
let fakePaidOrderId: string;
let messageId: string;
let failedMailId: number;
let unverifiedOrderId: string;

type Run = { code: number; stdout: string; stderr: string };

function admin(...args: string[]): Promise<Run> {
  return adminIn(root, ...args);
}

/** `npm run admin` started in the working directory `cwd`. */
function adminIn(cwd: string, ...args: string[]): Promise<Run> {
  return runCli(args, { cwd, env: { ...process.env, ...env } });
}

/** Runs a command that must succeed with --json and returns its parsed output. */
async function adminJson<T>(...args: string[]): Promise<T> {
  const run = await admin(...args, '--json');
  expect(run.stderr, `stderr of ${args.join(' ')}`).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** A refusal: non-zero exit, one line on stderr that matches, nothing on stdout. */
function expectRefusal(run: Run, code: number, message: RegExp): void {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(message);
}

/** Opens the shared database with the real app for the duration of `look`, then closes it for the next command. */
async function withApp<T>(look: (t: TestApp) => Promise<T>, now?: Date): Promise<T> {
  const t = await openTestApp({ env, now });
  try {
    return await look(t);
  } finally {
    await t.close();
  }
}

async function payOnEmulator(razorpayOrderId: string) {
  const response = await fetch(`${emulatorUrl}/checkout/${razorpayOrderId}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key_id: KEY_ID }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    razorpay_order_id: string;
    razorpay_payment_id: string;
    razorpay_signature: string;
  };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'admin-cli-'));
  emulatorServer = Fastify();
  registerRouteSchemas(emulatorServer);
  emulator = await registerRazorpayEmulator(emulatorServer, {
    keyId: KEY_ID,
    keySecret: 'emulator_key_secret',
    prefix: '/emulator',
  });
  await emulatorServer.listen({ port: 0, host: '127.0.0.1' });
  const address = emulatorServer.server.address();
  if (!address || typeof address !== 'object') throw new Error('emulator is not listening');
  emulatorUrl = `http://127.0.0.1:${address.port}/emulator/razorpay`;

  ({ env, drop: dropDatabase } = await commandLineProcessEnv(dataDir, {
    RAZORPAY_API_URL: emulatorUrl,
    RAZORPAY_KEY_ID: '',
    RAZORPAY_KEY_SECRET: '',
    SMTP_URL: '',
    SESSION_SECRET: 'admin-cli-test-session-secret-0123456789abcdef',
    // One installation: the command line opens the mail the test app sealed.
    DATA_SECRET_KEY: TEST_DATA_SECRET_KEY,
  }));

  await withApp(async (t) => {
    const catalogue = await catalogueRows(t);
    windowsToolId = catalogue.windows.id;

    // A purchase paid on the emulator, so the gateway knows the payment the refund test returns.
    const first = await newBuyer(t);
    buyer = first.user;
    const created = await createOrder(first.client, windowsToolId);
    expect(created.statusCode).toBe(200);
    const paid = await payOnEmulator(created.json<{ order_id: string }>().order_id);
    const verified = await first.client.post('/api/verify-payment/', paid);
    expect(verified.statusCode).toBe(200);
    paidOrderId = (await orderRow(t, paid.razorpay_order_id)).id;
    paidPaymentId = paid.razorpay_payment_id;

    // A purchase whose payment id the gateway has never seen: its refund must be refused.
    const second = await newBuyer(t);
    fakePaidOrderId = (await buyTool(t, second.client, windowsToolId)).order.id;

    const [message] = await t.ctx.db
      .insert(contactMessages)
      .values({
        name: 'Asha Verma',
        organisation: 'Verma & Sons',
        email: 'asha@example.com',
        relatedTo: 'Products',
        description: '=HYPERLINK("http://evil.example","Click me"), and a question about licences',
        ip: '203.0.113.9',
      })
      .returning({ id: contactMessages.id });
    messageId = message?.id ?? '';

    failedMailId = await enqueueMail(t.ctx, t.ctx.db, {
      to: 'nobody@example.com',
      subject: 'Undeliverable',
      html: '<p>x</p>',
      text: 'x',
      kind: 'contact-acknowledgement',
    });
    await t.ctx.db
      .update(outbox)
      .set({ status: 'failed', attempts: 8, lastError: 'EENVELOPE: 550 mailbox unavailable' })
      .where(eq(outbox.id, failedMailId));
  });

  // Paid at the gateway ten minutes ago, but the browser never came back and no webhook arrived.
  await withApp(
    async (t) => {
      const { client } = await newBuyer(t);
      const created = await createOrder(client, windowsToolId);
      expect(created.statusCode).toBe(200);
      const razorpayOrderId = created.json<{ order_id: string }>().order_id;
      await payOnEmulator(razorpayOrderId);
      unverifiedOrderId = (await orderRow(t, razorpayOrderId)).id;
    },
    new Date(Date.now() - 10 * 60_000),
  );
}, 120_000);

afterAll(async () => {
  await emulatorServer?.close();
  await dropDatabase?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run admin', () => {
  let addedToolId: string;

  it('adds a tool that GET /api/alltools/ then lists with its prices', async () => {
    const added = await adminJson<Tool & { delivery: string; active: boolean }>(
      'tools',
      'add',
      '--name',
      'PDF Toolkit',
      '--description',
      'Merge, split and compress PDFs on your own computer.',
      '--device',
      'Windows',
      '--price-inr',
      '499',
      '--price-usd',
      '7.99',
    );
    addedToolId = added._id;
    expect(added).toMatchObject({
      name: 'PDF Toolkit',
      priceINR: 499,
      priceUSD: 7.99,
      delivery: 'license_key',
    });

    const listed = await withApp(async (t) => {
      const response = await (await t.client()).get('/api/alltools/');
      return response.json<Tool[]>().find((tool) => tool._id === addedToolId);
    });
    expect(listed).toEqual({
      _id: addedToolId,
      name: 'PDF Toolkit',
      description: 'Merge, split and compress PDFs on your own computer.',
      device: 'Windows',
      price: 499,
      priceINR: 499,
      priceUSD: 7.99,
      comingSoon: false,
      purchased: false,
      icon: null,
      // The catalogue carries each tool's free trial length (decision 035); a new tool has none.
      trialDays: 0,
    });
  }, 60_000);

  it('sells a number of months of updates with a renewal price, and lifetime again (issue 65)', async () => {
    const id = addedToolId.slice(0, 8);
    const edited = await adminJson<{ updatesMonths: number | null; renewalPriceInrPaise: number | null }>(
      'tools',
      'edit',
      id,
      '--updates-for',
      '12m',
      '--renewal-price-inr',
      '599',
      '--renewal-price-usd',
      '9',
    );
    expect(edited).toMatchObject({
      updatesMonths: 12,
      renewalPriceInrPaise: 599_00,
      renewalPriceUsdCents: 9_00,
    });
    const shown = await admin('tools', 'edit', id, '--updates-for', '1y');
    expect(shown.stdout).toMatch(/Updates\s+12 months, renewal ₹599\.00 \/ \$9\.00/);
    // A period of no length is refused.
    expectRefusal(
      await admin('tools', 'edit', id, '--updates-for', '0m'),
      1,
      /--updates-for "0m": .*lifetime/i,
    );
    const lifetime = await adminJson<{ updatesMonths: number | null }>(
      'tools',
      'edit',
      id,
      '--updates-for',
      'lifetime',
      '--renewal-price-inr',
      'none',
      '--renewal-price-usd',
      'none',
    );
    expect(lifetime).toMatchObject({ updatesMonths: null, renewalPriceInrPaise: null });
  }, 60_000);

  it('refuses bad input with a one-line reason and a non-zero exit, and changes nothing', async () => {
    const id = addedToolId.slice(0, 8);
    // None of these needs the database, so they can run side by side.
    const [negative, decimals, missingFile, missingOption, unknownCommand] = await Promise.all([
      admin('tools', 'set-price', id, '--price-inr', '-5'),
      admin('tools', 'set-price', id, '--price-usd', '7.999'),
      admin('tools', 'upload', id, 'no-such-installer.zip'),
      admin('tools', 'add', '--name', 'Half a tool', '--price-inr', '10'),
      admin('tools', 'frobnicate'),
    ]);
    expectRefusal(negative, 1, /--price-inr "-5": the price must be positive/i);
    expectRefusal(decimals, 1, /--price-usd "7\.999": at most two decimals/i);
    expectRefusal(missingFile, 1, /No such file: no-such-installer\.zip/);
    expectRefusal(missingOption, 2, /"tools add" needs --description/);
    expectRefusal(unknownCommand, 2, /Unknown command "tools frobnicate"/);
    expectRefusal(
      await admin('orders', 'refund', '00000000-0000-4000-8000-000000000000'),
      1,
      /No order with id/,
    );

    const tools = await adminJson<Array<Tool & { file: unknown }>>('tools', 'list');
    expect(tools.filter((tool) => tool.name === 'Half a tool')).toEqual([]);
    expect(tools.find((tool) => tool._id === addedToolId)).toMatchObject({
      priceINR: 499,
      priceUSD: 7.99,
      file: null,
    });
  }, 60_000);

  let liveLink: string;

  it('uploads a file that a fresh download link serves; resend queues exactly one email with such a link', async () => {
    const bytes = randomBytes(5000);
    const file = path.join(dataDir, 'PDF Toolkit Setup 2.0.zip');
    writeFileSync(file, bytes);
    const sha256 = createHash('sha256').update(bytes).digest('hex');

    const uploaded = await adminJson<{ file: { name: string; size: number; sha256: string } }>(
      'tools',
      'upload',
      windowsToolId.slice(0, 8),
      file,
    );
    expect(uploaded.file).toMatchObject({ name: 'PDF Toolkit Setup 2.0.zip', size: 5000, sha256 });

    const resent = await adminJson<{ outboxId: number; to: string }>(
      'orders',
      'resend',
      paidOrderId.slice(0, 8),
    );
    expect(resent.to).toBe(buyer.email);

    liveLink = await withApp(async (t) => {
      const mails = openedMails(
        t.ctx,
        await t.ctx.db
          .select()
          .from(outbox)
          .where(and(eq(outbox.ref, `order:${paidOrderId}`), eq(outbox.kind, 'license-resend'))),
      );
      expect(mails.map((mail) => mail.id)).toEqual([resent.outboxId]);
      const [mail] = mails;
      expect(mail?.to).toBe(buyer.email);
      const link = downloadLinkIn(mail?.text ?? '');

      const download = await t.app.inject({ method: 'GET', url: new URL(link).pathname });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(bytes)).toBe(true);
      expect(download.headers['content-disposition']).toContain('PDF Toolkit Setup 2.0.zip');

      const events = await t.ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, paidOrderId));
      expect(events.map((event) => event.kind)).toContain('resent');
      return link;
    });
  }, 60_000);

  it('refunds through the gateway; the download link and Get Credentials then refuse', async () => {
    const refunded = await adminJson<{ refundId: string; downloadLinksRevoked: number; outboxId: number }>(
      'orders',
      'refund',
      paidPaymentId,
      '--reason',
      'Bought the wrong edition',
    );
    expect(refunded.refundId).toMatch(/^rfnd_/);
    expect(refunded.downloadLinksRevoked).toBeGreaterThanOrEqual(2);
    expect(emulator.payments.get(paidPaymentId)?.status).toBe('refunded');

    await withApp(async (t) => {
      const download = await t.app.inject({
        method: 'GET',
        url: new URL(liveLink).pathname,
        headers: { accept: 'application/json' },
      });
      expect(download.statusCode).toBe(404);

      const client = await loginAs(t, buyer);
      const credentials = await client.post('/api/send-tool-credentials/', { toolId: windowsToolId });
      expect(credentials.statusCode).toBe(404);
      expect(credentials.json()).toMatchObject({ message: SHOP_ENDPOINT_MESSAGES.credentials.notPurchased });
      expect((await client.get('/api/my-tools/')).json()).toEqual([]);

      const [order] = await t.ctx.db.select().from(orders).where(eq(orders.id, paidOrderId));
      expect(order?.status).toBe('refunded');
      const [purchase] = await t.ctx.db.select().from(purchases).where(eq(purchases.orderId, paidOrderId));
      expect(purchase?.refundedAt).toBeInstanceOf(Date);
      const links = await t.ctx.db
        .select()
        .from(downloadTokens)
        .where(eq(downloadTokens.purchaseId, purchase?.id ?? ''));
      expect(links).toEqual([]);
      const [notice] = openedMails(
        t.ctx,
        await t.ctx.db.select().from(outbox).where(eq(outbox.id, refunded.outboxId)),
      );
      expect(notice).toMatchObject({ kind: 'refund-notice', to: buyer.email, ref: `order:${paidOrderId}` });
      expect(notice?.text).toContain('Bought the wrong edition');
      expect(notice?.text).toContain(refunded.refundId);
    });

    expectRefusal(await admin('orders', 'refund', paidOrderId), 1, /already refunded/);
  }, 60_000);

  it('changes nothing when the gateway refuses a refund', async () => {
    const run = await admin('orders', 'refund', fakePaidOrderId);
    expectRefusal(run, 1, /Razorpay .*Nothing was changed/);
    await withApp(async (t) => {
      const [order] = await t.ctx.db.select().from(orders).where(eq(orders.id, fakePaidOrderId));
      expect(order?.status).toBe('paid');
      const [purchase] = await t.ctx.db
        .select()
        .from(purchases)
        .where(eq(purchases.orderId, fakePaidOrderId));
      expect(purchase?.refundedAt).toBeNull();
      const notices = await t.ctx.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.ref, `order:${fakePaidOrderId}`), eq(outbox.kind, 'refund-notice')));
      expect(notices).toEqual([]);
    });
  }, 60_000);

  it('reconciles once: fulfils the order the gateway says was paid and reports it', async () => {
    const summary = await adminJson<{ checked: number; fulfilled: number; errors: unknown[] }>('reconcile');
    expect(summary).toMatchObject({ checked: 1, fulfilled: 1, errors: [] });
    await withApp(async (t) => {
      const [order] = await t.ctx.db.select().from(orders).where(eq(orders.id, unverifiedOrderId));
      expect(order?.status).toBe('paid');
      const deliveries = await t.ctx.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.ref, `order:${unverifiedOrderId}`), eq(outbox.kind, 'license-delivery')));
      expect(deliveries).toHaveLength(1);
    });
  }, 60_000);

  it('lists contact messages, marks one handled and exports them as spreadsheet-safe CSV', async () => {
    const unhandled = await adminJson<Array<{ id: string }>>('messages', 'list', '--unhandled');
    expect(unhandled.map((message) => message.id)).toEqual([messageId]);

    await adminJson('messages', 'handled', messageId.slice(0, 8));
    const exported = await admin('messages', 'export', '--csv');
    expect(exported.code).toBe(0);
    const [header, row, ...rest] = exported.stdout.split('\r\n');
    expect(header).toBe('id,received,name,organisation,email,related_to,message,handled,ip');
    expect(rest).toEqual(['']);
    expect(row).toContain(`${messageId},`);
    expect(row).toContain(
      `"'=HYPERLINK(""http://evil.example"",""Click me""), and a question about licences"`,
    );
    expect(row).toMatch(/,Products,.*,\d{4}-\d{2}-\d{2}T[\d:.]+Z,203\.0\.113\.9$/);
  }, 60_000);

  it('shows failed mail with its reason and queues it again', async () => {
    const status = await adminJson<{
      counts: { failed: number };
      failed: Array<{ id: number; lastError: string }>;
    }>('mail', 'status');
    expect(status.counts.failed).toBe(1);
    expect(status.failed).toEqual([
      expect.objectContaining({ id: failedMailId, lastError: 'EENVELOPE: 550 mailbox unavailable' }),
    ]);

    const retried = await adminJson<{ requeued: number[] }>('mail', 'retry-failed');
    expect(retried.requeued).toEqual([failedMailId]);
    expectRefusal(await admin('mail', 'retry', String(failedMailId)), 1, /still queued/);
  }, 60_000);

  it('shows an account with its purchases, whatever the letter case of the email', async () => {
    const user = await adminJson<{
      email: string;
      purchases: Array<{ toolId: string; refundedAt: string | null }>;
    }>('users', 'show', buyer.email.toUpperCase());
    expect(user.email).toBe(buyer.email);
    expect(user.purchases).toEqual([expect.objectContaining({ toolId: windowsToolId })]);
    expect(user.purchases[0]?.refundedAt).not.toBeNull();
  }, 30_000);

  it('exports everything held about an account as JSON for a data request, and audits it', async () => {
    const data = await adminJson<{
      profile: { email: string };
      orders: Array<{ status: string }>;
      summary: string;
    }>('users', 'export', buyer.email.toUpperCase());
    expect(data.profile.email).toBe(buyer.email);
    expect(data.orders.length).toBeGreaterThan(0);
    expect(data.summary).toContain(buyer.email);
    const activity = await adminJson<Array<{ action: string; actor: string; target: string }>>(
      'activity',
      '--search',
      'customer.export',
    );
    expect(activity[0]).toMatchObject({ action: 'customer.export', target: expect.stringMatching(/^user:/) });
    expectRefusal(await admin('users', 'export', 'nobody@example.com'), 1, /No account/);
  }, 120_000);

  // Only the embedded database has a data directory to hold; on PostgreSQL the command line opens it itself.
  (testDriver() === 'pglite' ? it : () => undefined)(
    'runs through the server that holds the PGlite data directory, with the same answers and exit codes',
    async () => {
      const server = new ServerProcess({ ...env, SITE_DIR: path.join(dataDir, 'no-site') });
      try {
        await server.start();
        await waitForSocket();
        // Only the data's owner may connect: the socket is as private as DATA_DIR's files.
        expect(statSync(adminSocketPath(dataDir)).mode & 0o777).toBe(0o600);

        const granted = await admin('operators', 'add', buyer.email.toUpperCase());
        expect(granted.stderr).toBe('');
        expect(granted.code).toBe(0);
        expect(granted.stdout).toBe(
          `${buyer.email} is now an operator. At the first sign-in on /admin they set up an authenticator app.\n`,
        );
        const operators = await adminJson<Array<{ email: string; enrolled: boolean }>>('operators', 'list');
        expect(operators).toEqual([expect.objectContaining({ email: buyer.email, enrolled: false })]);

        const tools = await adminJson<Tool[]>('tools', 'list');
        expect(tools.map((tool) => tool._id)).toContain(windowsToolId);

        // The server's own catalogue cache is cleared by the change: the site shows the new price at once.
        await adminJson('tools', 'set-price', windowsToolId.slice(0, 8), '--price-inr', '549');
        const catalogue = (await (await fetch(`${server.url}/api/alltools/`)).json()) as Tool[];
        expect(catalogue.find((tool) => tool._id === windowsToolId)?.priceINR).toBe(549);

        // A relative path is the operator's, not the server's: it starts from the command line's directory.
        const workDir = path.join(dataDir, 'operator-work');
        mkdirSync(workDir, { recursive: true });
        const bytes = randomBytes(3000);
        writeFileSync(path.join(workDir, 'toolkit-2.1.zip'), bytes);
        const uploaded = await adminIn(
          workDir,
          'tools',
          'upload',
          windowsToolId.slice(0, 8),
          'toolkit-2.1.zip',
        );
        expect(uploaded.stderr).toBe('');
        expect(uploaded.code).toBe(0);
        expect(uploaded.stdout).toContain(createHash('sha256').update(bytes).digest('hex'));

        // Refusals keep their exit code and their one stderr line, from the server as from a local run.
        expectRefusal(
          await admin('orders', 'refund', '00000000-0000-4000-8000-000000000000'),
          1,
          /^admin: No order with id/,
        );
        expectRefusal(
          await admin('operators', 'add', 'nobody@example.com'),
          1,
          /^admin: No account with the email nobody@example\.com\.$/,
        );
        expectRefusal(await admin('tools', 'frobnicate'), 2, /^admin: Unknown command "tools frobnicate"/);
        // The same, asked of the server directly: its dispatcher maps errors as the command line does.
        expect(
          await askServer(dataDir, { argv: ['tools', 'frobnicate'], cwd: root, osUser: 'tester' }),
        ).toEqual({
          stdout: '',
          stderr: expect.stringMatching(/^admin: Unknown command "tools frobnicate".*\n$/),
          exitCode: 2,
        });
        expect(
          await askServer(dataDir, { argv: ['restore', 'snapshot.tar.gz'], cwd: root, osUser: 'tester' }),
        ).toEqual({
          stdout: '',
          stderr: expect.stringMatching(/^admin: restore cannot run inside the running server/),
          exitCode: 1,
        });
        expect(
          await askServer(dataDir, { argv: ['tools', 'list'], cwd: 'relative/dir', osUser: 'tester' }),
        ).toEqual({
          stdout: '',
          stderr: 'admin: The request was not understood.\n',
          exitCode: 2,
        });
        const oversized = JSON.stringify({
          argv: ['tools', 'list', 'x'.repeat(300_000)],
          cwd: root,
          osUser: 'tester',
        });
        expect(JSON.parse(await rawExchange(`${oversized}\n`))).toEqual({
          stdout: '',
          stderr: 'admin: The command line is too long.\n',
          exitCode: 2,
        });

        // A server that crashed leaves its socket behind; nobody answers on it.
        await server.crash();
        expect(existsSync(adminSocketPath(dataDir))).toBe(true);
        await withApp(async () => {
          expectRefusal(
            await admin('tools', 'list'),
            1,
            /^admin: The database in .+ is in use by a running server \(pid \d+\); stop it or set DATABASE_URL to use PostgreSQL\.$/,
          );
        });

        // The next server replaces the stale socket, and removes its own when it stops.
        await server.start();
        await waitForSocket();
        const again = await adminJson<Array<{ email: string }>>('operators', 'list');
        expect(again.map((operator) => operator.email)).toEqual([buyer.email]);
      } finally {
        await server.stop();
      }
      expect(existsSync(adminSocketPath(dataDir))).toBe(false);
    },
    120_000,
  );

  it('audits a refund, a resend, a price change and a device freed here: activity --json and the dashboard show them', async () => {
    // A purchase paid on the emulator (so it can be refunded) with one machine activated through the license API.
    const bought = await withApp(async (t) => {
      const { client } = await newBuyer(t);
      const created = await createOrder(client, windowsToolId);
      const paid = await payOnEmulator(created.json<{ order_id: string }>().order_id);
      expect((await client.post('/api/verify-payment/', paid)).statusCode).toBe(200);
      const orderId = (await orderRow(t, paid.razorpay_order_id)).id;
      const [license] = await t.ctx.db
        .select({ licenseKeySealed: licenses.licenseKeySealed })
        .from(licenses)
        .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
        .where(eq(purchases.orderId, orderId));
      const key = license ? revealLicenseKey(t.ctx.dataSecrets, license) : null;
      const activated = await t.app.inject({
        method: 'POST',
        url: '/api/licenses/activate',
        payload: {
          licenseKey: key,
          toolId: windowsToolId,
          fingerprint: 'audit-test-machine',
          name: 'Audit PC',
        },
      });
      expect(activated.statusCode, activated.body).toBe(200);
      return { orderId, licenseKey: key ?? '' };
    });

    // On the embedded database the running server runs each command for this process (its OS user travels along).
    const server =
      testDriver() === 'pglite'
        ? new ServerProcess({ ...env, SITE_DIR: path.join(dataDir, 'no-site') })
        : undefined;
    const startedAt = new Date();
    try {
      if (server) {
        await server.start();
        await waitForSocket();
      }
      await adminJson('orders', 'resend', bought.orderId);
      await adminJson('tools', 'set-price', windowsToolId, '--price-inr', '579');
      const license = await adminJson<{ devices: Array<{ id: string }> }>(
        'licenses',
        'show',
        bought.licenseKey,
      );
      expect(license.devices).toHaveLength(1);
      const device = license.devices[0]?.id ?? '';
      await adminJson('licenses', 'deactivate', bought.licenseKey, device.slice(0, 8));
      await adminJson('orders', 'refund', bought.orderId, '--reason', 'Audit trail check');

      const actor = `cli:${userInfo().username}`;
      const expected = [
        expect.objectContaining({
          actor,
          action: 'order.refund',
          target: `order:${bought.orderId}`,
          after: expect.objectContaining({ status: 'refunded', reason: 'Audit trail check' }),
        }),
        expect.objectContaining({
          actor,
          action: 'license.deactivate_device',
          before: expect.objectContaining({ device, active: true }),
          after: expect.objectContaining({ device, active: false }),
        }),
        expect.objectContaining({
          actor,
          action: 'tool.update',
          target: `tool:${windowsToolId}`,
          after: { pricePaise: 57_900 },
        }),
        expect.objectContaining({ actor, action: 'order.resend', target: `order:${bought.orderId}` }),
      ];
      const since = `${startedAt.getFullYear()}-${String(startedAt.getMonth() + 1).padStart(2, '0')}-${String(startedAt.getDate()).padStart(2, '0')}`;
      const logged = await adminJson<Array<{ actor: string; action: string; createdAt: string }>>(
        'activity',
        '--since',
        since,
      );
      expect(logged.slice(0, 4)).toEqual(expected);
      expect((await admin('activity', '--since', '1d')).stdout).toMatch(/order\.refund/);
      expectRefusal(
        await admin('activity', '--since', 'yesterday'),
        1,
        /--since "yesterday": not a date or an age/,
      );

      await server?.stop();
      await withApp(async (t) => {
        const operator = await verifiedOperator(t);
        const shown = await operator.client.get('/api/admin/activity?pageSize=10');
        expect(shown.statusCode).toBe(200);
        const items = shown
          .json<{ items: unknown[] }>()
          .items.filter((item) => (item as { actor: string }).actor === actor);
        expect(items.slice(0, 4)).toEqual(expected);
      });
    } finally {
      await server?.stop();
    }
  }, 180_000);
});

/**
 * Sends `text` as it is over the admin socket and returns everything the server answers. The server may answer and
 * close before it has read all of it (EPIPE here): the answer is what counts.
 */
function rawExchange(text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = createConnection(adminSocketPath(dataDir));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(answer));
    socket.write(text);
  });
}

/** The server opens its admin socket right after it starts listening for HTTP; this waits for it. */
async function waitForSocket(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await askServer(dataDir, { argv: ['--help'], cwd: root, osUser: 'tester' })) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the server did not open its admin socket');
}
