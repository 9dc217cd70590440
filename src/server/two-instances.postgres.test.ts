import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../test/support/app';
import { createTestDatabase } from '../../test/support/database';
import { freePort, HttpClient, ServerProcess } from '../../test/support/processes';
import { TEST_DATA_SECRET_KEY } from '../../test/support/settings';
import {
  catalogueRows,
  createUser,
  eventually,
  INR_BILLING,
  loginAs,
  orderRow,
  paymentEvent,
} from '../../test/support/shop-fixtures';
import { TestSmtpServer } from '../../test/support/smtp';
import { hashPassword } from './auth/passwords';
import { users } from './db/schema/accounts';
import { outbox } from './db/schema/mail';
import { orders, purchases } from './db/schema/orders';
import { EMULATOR_PREFIX } from './payments/gateway';
import { webhookSignature } from './payments/signatures';

/**
 * Two app processes on one PostgreSQL database, as behind a load balancer (docs/product.md §1, §10.4): sessions,
 * payments, the mail outbox and the reconciler must behave as if there were one. Razorpay is the emulator of a
 * third app (this test's own), which both instances call and whose webhooks go to instance B.
 */
const PASSWORD = 'Correct horse 42';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let razorpay: TestApp;
let smtp: TestSmtpServer;
let a: ServerProcess;
let b: ServerProcess;
let buyer: { id: string; email: string };
let tools: Awaited<ReturnType<typeof catalogueRows>>;
let reconciledOrderId: string;

const emailsTo = (to: string) => smtp.messages.filter((mail) => mail.to.includes(to));

beforeAll(async () => {
  database = await createTestDatabase();
  if (!database.url) throw new Error('the two-instance test needs PostgreSQL');
  smtp = await new TestSmtpServer().start();
  const [razorpayPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${razorpayPort}${EMULATOR_PREFIX}`;
  // One installation: every instance opens the mail and licenses the others sealed.
  const shared = {
    DATABASE_URL: database.url,
    SMTP_URL: smtp.url,
    RAZORPAY_API_URL: apiUrl,
    DATA_SECRET_KEY: TEST_DATA_SECRET_KEY,
  };

  razorpay = await openTestApp({
    env: { ...shared, PUBLIC_URL: `http://127.0.0.1:${portB}` },
  });
  await razorpay.app.listen({ port: razorpayPort, host: '127.0.0.1' });
  tools = await catalogueRows(razorpay);
  buyer = await createUser(razorpay);
  await razorpay.ctx.db
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.id, buyer.id));

  // An order paid at Razorpay whose browser closed and whose webhook was lost (instance B is not up yet): only
  // the reconciler can fulfil it, and both instances' reconcilers run as soon as they start.
  const created = await (await loginAs(razorpay, buyer)).post('/api/create-payment/', {
    toolId: tools.windows.id,
    currency: 'INR',
    billingDetails: INR_BILLING,
  });
  expect(created.statusCode).toBe(200);
  const razorpayOrderId = created.json<{ order_id: string }>().order_id;
  const paid = await fetch(`${apiUrl}/checkout/${razorpayOrderId}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key_id: razorpay.config.razorpay.keyId }),
  });
  expect(paid.status).toBe(200);
  await razorpay.emulator?.settled();
  const stale = await orderRow(razorpay, razorpayOrderId);
  expect(stale.status).toBe('created');
  reconciledOrderId = stale.id;
  await razorpay.ctx.db
    .update(orders)
    .set({ createdAt: new Date(Date.now() - 10 * 60 * 1000) })
    .where(eq(orders.id, stale.id));

  a = new ServerProcess({ ...shared, LOG_LEVEL: 'error' }, portA);
  b = new ServerProcess({ ...shared, LOG_LEVEL: 'error' }, portB);
  await Promise.all([a.start(), b.start()]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await razorpay?.close();
  await smtp?.stop();
  await database?.close();
});

describe('two app instances on one PostgreSQL', () => {
  it('run the reconciler once between them: one purchase and one email for the stale paid order', async () => {
    await eventually(async () => (emailsTo(buyer.email).length >= 1 ? true : undefined), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const bought = await razorpay.ctx.db
      .select()
      .from(purchases)
      .where(eq(purchases.orderId, reconciledOrderId));
    expect(bought).toHaveLength(1);
    expect(emailsTo(buyer.email)).toHaveLength(1);
    expect((await orderRow(razorpay, (await orderById(reconciledOrderId)).razorpayOrderId)).status).toBe(
      'paid',
    );
  });

  it('honour a session made on one instance on the other', async () => {
    const onA = new HttpClient(a.url);
    await onA.get('/api/csrf-token/');
    expect((await onA.post('/api/auth/login/', { email: buyer.email, password: PASSWORD })).status).toBe(200);
    onA.baseUrl = b.url;
    expect(await (await onA.get('/api/auth/check/')).json()).toMatchObject({
      loggedin: true,
      user: { email: buyer.email },
    });
  });

  it('fulfil once when verify on A races the webhook on B: one purchase, one email', async () => {
    const browser = new HttpClient(a.url);
    await browser.get('/api/csrf-token/');
    await browser.post('/api/auth/login/', { email: buyer.email, password: PASSWORD });
    const created = await browser.postJson('/api/create-payment/', {
      toolId: tools.macos.id,
      currency: 'INR',
      billingDetails: INR_BILLING,
    });
    expect(created.status).toBe(200);
    const razorpayOrderId = ((await created.json()) as { order_id: string }).order_id;
    // The checkout pays; the emulator's own order.paid webhook follows a second later, a third contender.
    const paid = await fetch(`${razorpay.config.razorpay.apiUrl}/checkout/${razorpayOrderId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key_id: razorpay.config.razorpay.keyId }),
    });
    const handler = (await paid.json()) as Record<string, string>;
    const order = await orderRow(razorpay, razorpayOrderId);
    const event = paymentEvent('payment.captured', order, handler.razorpay_payment_id);
    const [verified, webhook] = await Promise.all([
      browser.postJson('/api/verify-payment/', handler),
      fetch(`${b.url}/api/razorpay/webhook/`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': webhookSignature(razorpay.config.razorpay.webhookSecret ?? '', event),
          'x-razorpay-event-id': `evt_${randomBytes(7).toString('hex')}`,
        },
        body: event,
      }),
    ]);
    expect(verified.status).toBe(200);
    expect(webhook.status).toBe(200);
    await razorpay.emulator?.settled();

    await eventually(async () => (emailsTo(buyer.email).length >= 2 ? true : undefined), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const bought = await razorpay.ctx.db.select().from(purchases).where(eq(purchases.orderId, order.id));
    expect(bought).toHaveLength(1);
    expect(emailsTo(buyer.email)).toHaveLength(2);
  });

  it('deliver every queued mail exactly once while both outbox workers run', async () => {
    const recipients = Array.from(
      { length: 8 },
      (_, i) => `outbox-${i}-${randomBytes(3).toString('hex')}@example.com`,
    );
    await Promise.all(
      recipients.map(async (email, i) => {
        const client = new HttpClient(i % 2 === 0 ? a.url : b.url);
        await client.get('/api/csrf-token/');
        const sent = await client.post('/api/auth/send-otp/', { name: 'Outbox Test', email });
        expect(sent.status).toBe(200);
      }),
    );
    await eventually(
      async () => (recipients.every((email) => emailsTo(email).length >= 1) ? true : undefined),
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 3000));
    for (const email of recipients) expect(emailsTo(email)).toHaveLength(1);
    const rows = await razorpay.ctx.db.select().from(outbox).where(inArray(outbox.to, recipients));
    expect(rows.map((row) => row.status)).toEqual(recipients.map(() => 'sent'));
    expect(a.alive && b.alive).toBe(true);
  });
});

async function orderById(id: string) {
  const [row] = await razorpay.ctx.db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw new Error(`no order ${id}`);
  return row;
}
