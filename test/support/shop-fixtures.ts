import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashSessionId, SESSION_TTL_MS } from '../../src/server/auth/session';
import { activeCatalogue } from '../../src/server/catalogue/catalogue';
import { invalidateCatalogue } from '../../src/server/catalogue/catalogue-cache';
import { createCoupon } from '../../src/server/coupons/operator';
import { sessions, users } from '../../src/server/db/schema/accounts';
import { tools } from '../../src/server/db/schema/catalogue';
import { licenses } from '../../src/server/db/schema/licenses';
import { outbox } from '../../src/server/db/schema/mail';
import { orders, purchases } from '../../src/server/db/schema/orders';
import { cliActor } from '../../src/server/operator/audit';
import { checkoutSignature, webhookSignature } from '../../src/server/payments/signatures';
import { newCouponSchema } from '../../src/shared/coupons';
import { createTestApp, type TestApp } from './app';
import type { TestClient } from './client';
import { openedMails } from './mail';
import { freePort } from './processes';

export type ShopTestApp = TestApp & {
  /** Where the app listens: the gateway, the emulator and its webhooks talk over real HTTP. */
  baseUrl: string;
  dataDir: string;
};

/**
 * The real app on a fresh database, listening on a loopback port that PUBLIC_URL names, with its own DATA_DIR
 * for stored files. Without Razorpay keys in `env` the built-in emulator answers the gateway.
 */
export async function createShopTestApp(
  options: { env?: Record<string, string>; prepare?: (app: FastifyInstance) => void } = {},
): Promise<ShopTestApp> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-test-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    env: { PUBLIC_URL: baseUrl, DATA_DIR: dataDir, ...options.env },
    prepare: options.prepare,
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  return {
    ...t,
    baseUrl,
    dataDir,
    async close() {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type FixtureUser = { id: string; name: string; email: string; phone: string };

/** A registered user, inserted directly (the signup flow has its own tests). */
export async function createUser(
  t: TestApp,
  overrides: Partial<Omit<FixtureUser, 'id'>> = {},
): Promise<FixtureUser> {
  const tag = randomBytes(4).toString('hex');
  const values = {
    name: overrides.name ?? `Buyer ${tag}`,
    email: overrides.email ?? `buyer-${tag}@example.com`,
    phone: overrides.phone ?? '+919876543210',
  };
  const [row] = await t.ctx.db
    .insert(users)
    .values({ ...values, passwordHash: 'fixture-user-cannot-log-in' })
    .returning({ id: users.id });
  if (!row) throw new Error('user insert returned no row');
  return { id: row.id, ...values };
}

/** A browser-like client already logged in as `user`: a session row and its cookie, as startSession makes them. */
export async function loginAs(t: TestApp, user: { id: string }): Promise<TestClient> {
  const client = await t.client();
  const id = randomBytes(32).toString('base64url');
  const now = t.clock.now();
  await t.ctx.db.insert(sessions).values({
    idHash: hashSessionId(id),
    userId: user.id,
    createdAt: now,
    // As a sign-in does: signing in opens the 10-minute window for risky changes (decision 042).
    reauthenticatedAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  });
  client.cookies.set('sessionid', id);
  return client;
}

export async function newBuyer(t: TestApp): Promise<{ user: FixtureUser; client: TestClient }> {
  const user = await createUser(t);
  return { user, client: await loginAs(t, user) };
}

/** The default catalogue (seeded on first read) as database rows. */
export async function catalogueRows(t: TestApp) {
  await activeCatalogue(t.ctx);
  const rows = await t.ctx.db.select().from(tools);
  const find = (predicate: (row: (typeof rows)[number]) => boolean) => {
    const row = rows.find(predicate);
    if (!row) throw new Error('catalogue row not found');
    return row;
  };
  return {
    rows,
    windows: find((row) => row.device === 'Windows' && !row.comingSoon),
    macos: find((row) => row.device === 'macOS' && !row.comingSoon),
    comingSoon: find((row) => row.comingSoon),
  };
}

/** A percentage coupon `code` for every tool, made as the operator `by` makes one on the command line. */
export function addPercentCoupon(t: TestApp, code: string, percent: number, by: string) {
  return createCoupon(t.ctx, cliActor(by), newCouponSchema.parse({ code, percent }));
}

/** A purchasable tool added for one test (e.g. one delivered as credentials). */
export async function addTool(
  t: TestApp,
  values: Partial<typeof tools.$inferInsert> = {},
): Promise<typeof tools.$inferSelect> {
  const [row] = await t.ctx.db
    .insert(tools)
    .values({
      name: `Fixture tool ${randomUUID().slice(0, 8)}`,
      description: 'A tool created by a test fixture.',
      priceInrPaise: 99_900,
      ...values,
    })
    .returning();
  if (!row) throw new Error('tool insert returned no row');
  invalidateCatalogue(t.ctx);
  return row;
}

/** The dashboard's tool form as an operator fills it in (prices as typed, in rupees and dollars). */
export const TOOL_FORM = {
  name: 'Ledger Lens',
  description: 'Reads Tally exports offline.',
  device: 'Windows',
  priceINR: '1499',
  priceUSD: '19.99',
  comingSoon: false,
  active: true,
  delivery: 'license_key',
  activationLimit: '3',
};

/**
 * A paid order of `toolId` for `userId` inserted directly, without the gateway, for tests of what follows a payment
 * (the tax invoice, GSTR-1). The billing details default to an Indian buyer without a GSTIN. Returns the order's id.
 */
export async function insertPaidOrder(
  t: TestApp,
  input: {
    userId: string;
    toolId: string;
    amount: number;
    currency?: 'INR' | 'USD';
    billing?: Partial<Record<'address' | 'state' | 'country' | 'gstin', string>>;
  },
): Promise<string> {
  const currency = input.currency ?? 'INR';
  const [order] = await t.ctx.db
    .insert(orders)
    .values({
      userId: input.userId,
      toolId: input.toolId,
      razorpayOrderId: `order_${randomBytes(7).toString('hex')}`,
      amount: input.amount,
      currency,
      billing: { currency, address: '', state: '', country: 'India', gstin: '', ...input.billing },
      status: 'paid',
    })
    .returning({ id: orders.id });
  if (!order) throw new Error('order insert returned no row');
  return order.id;
}

export const INR_BILLING = {
  address: '3rd Floor, Ganpati Plaza, MI Road, Jaipur',
  state: 'Rajasthan',
  country: 'India',
  gstin: '',
  currency: 'INR',
} as const;
export const USD_BILLING = { address: '', state: '', country: 'Canada', gstin: '', currency: 'USD' } as const;
/** A GSTIN of Maharashtra (27) that passes the checksum: another state than the firm's Rajasthan, so IGST. */
export const MAHARASHTRA_GSTIN = '27AAPFU0939F1ZV';
/** A business buyer in Maharashtra with its GSTIN: a B2B supply to another state. */
export const MAHARASHTRA_BUSINESS_BILLING = {
  address: 'Unit 4, Lodha Supremus, Lower Parel, Mumbai',
  state: 'Maharashtra',
  country: 'India',
  gstin: MAHARASHTRA_GSTIN,
  currency: 'INR',
} as const;

export async function createOrder(
  client: TestClient,
  toolId: string,
  currency: 'INR' | 'USD' = 'INR',
  extra: Record<string, unknown> = {},
) {
  return client.post('/api/create-payment/', {
    toolId,
    currency,
    billingDetails: currency === 'INR' ? INR_BILLING : USD_BILLING,
    ...extra,
  });
}

/** What Razorpay Checkout would hand the browser for a successful payment, signed with `keySecret`. */
export function signedCheckout(
  keySecret: string,
  razorpayOrderId: string,
  razorpayPaymentId = fakePaymentId(),
) {
  return {
    razorpay_order_id: razorpayOrderId,
    razorpay_payment_id: razorpayPaymentId,
    razorpay_signature: checkoutSignature(keySecret, razorpayOrderId, razorpayPaymentId),
  };
}

export const fakePaymentId = () => `pay_${randomBytes(7).toString('hex')}`;

/** A Razorpay-shaped webhook body for a payment on `order`. */
export function paymentEvent(
  event: 'order.paid' | 'payment.captured' | 'payment.failed',
  order: { razorpayOrderId: string; amount: number; currency: string },
  paymentId = fakePaymentId(),
): string {
  const failed = event === 'payment.failed';
  const payment = {
    id: paymentId,
    entity: 'payment',
    amount: order.amount,
    currency: order.currency,
    status: failed ? 'failed' : 'captured',
    order_id: order.razorpayOrderId,
    captured: !failed,
    error_code: failed ? 'BAD_REQUEST_ERROR' : null,
    error_description: failed ? 'Your card was declined.' : null,
  };
  return JSON.stringify({
    entity: 'event',
    account_id: 'acc_Test00000001',
    event,
    contains: ['payment', 'order'],
    payload: {
      payment: { entity: payment },
      order: { entity: { id: order.razorpayOrderId, entity: 'order', amount: order.amount, status: 'paid' } },
    },
    created_at: 1_780_000_000,
  });
}

/** Posts a webhook the way Razorpay does: the raw body, its HMAC and an event id. */
export async function postWebhook(
  t: TestApp,
  rawBody: string,
  options: { secret?: string; eventId?: string; signature?: string; contentType?: string } = {},
) {
  const secret = options.secret ?? t.config.razorpay.webhookSecret ?? '';
  return t.app.inject({
    method: 'POST',
    url: '/api/razorpay/webhook/',
    headers: {
      'content-type': options.contentType ?? 'application/json',
      'x-razorpay-signature': options.signature ?? webhookSignature(secret, rawBody),
      'x-razorpay-event-id': options.eventId ?? `evt_${randomBytes(7).toString('hex')}`,
    },
    payload: rawBody,
  });
}

export async function orderRow(t: TestApp, razorpayOrderId: string) {
  const [row] = await t.ctx.db.select().from(orders).where(eq(orders.razorpayOrderId, razorpayOrderId));
  if (!row) throw new Error(`no order ${razorpayOrderId}`);
  return row;
}

/** How many purchases, licenses and delivery emails one order produced. */
export async function effectsOf(t: TestApp, orderId: string) {
  const [purchaseCount] = await t.ctx.db
    .select({ n: count() })
    .from(purchases)
    .where(eq(purchases.orderId, orderId));
  const [licenseCount] = await t.ctx.db
    .select({ n: count() })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .where(eq(purchases.orderId, orderId));
  const mails = openedMails(
    t.ctx,
    await t.ctx.db
      .select()
      .from(outbox)
      .where(eq(outbox.ref, `order:${orderId}`)),
  );
  return {
    purchases: purchaseCount?.n ?? 0,
    licenses: licenseCount?.n ?? 0,
    deliveries: mails.filter((mail) => mail.kind === 'license-delivery'),
    resends: mails.filter((mail) => mail.kind === 'license-resend'),
  };
}

/** The download link in a delivery email. */
export function downloadLinkIn(text: string): string {
  const match = /https?:\/\/\S+\/api\/downloads\/[\w-]{43}/.exec(text);
  if (!match) throw new Error('no download link in the email');
  return match[0];
}

/** Polls until `check` returns a value (for effects that arrive over real HTTP, e.g. emulator webhooks). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Buys a tool the way the browser does: create-payment, then verify-payment with the handler values Razorpay
 * Checkout would give (signed with the configured key secret). Returns the Razorpay ids and the local order.
 */
export async function buyTool(
  t: TestApp,
  client: TestClient,
  toolId: string,
  currency: 'INR' | 'USD' = 'INR',
) {
  const created = await createOrder(client, toolId, currency);
  if (created.statusCode !== 200) throw new Error(`create-payment failed: ${created.body}`);
  const razorpayOrderId = created.json<{ order_id: string }>().order_id;
  const checkout = signedCheckout(t.config.razorpay.keySecret, razorpayOrderId);
  const verified = await client.post('/api/verify-payment/', checkout);
  if (verified.statusCode !== 200) throw new Error(`verify-payment failed: ${verified.body}`);
  return {
    razorpayOrderId,
    razorpayPaymentId: checkout.razorpay_payment_id,
    order: await orderRow(t, razorpayOrderId),
  };
}

/**
 * Buys a tool through the emulator's own checkout, so the emulator knows the payment (a refund then reaches it),
 * and waits for its webhooks. Returns the local order.
 */
export async function buyThroughEmulator(
  t: ShopTestApp,
  client: TestClient,
  toolId: string,
  extra: Record<string, unknown> = {},
) {
  return paidThroughEmulator(t, client, await createOrder(client, toolId, 'INR', extra));
}

/** Any kind of order (`body` as create-payment takes it), paid in the emulator's checkout and verified. */
export async function payThroughEmulator(t: ShopTestApp, client: TestClient, body: Record<string, unknown>) {
  return paidThroughEmulator(t, client, await client.post('/api/create-payment/', body));
}

/**
 * Presses "pay" (or "fail") in the emulator's checkout for `razorpayOrderId` over real HTTP, as its checkout script
 * does; the answer holds what Razorpay Checkout would hand the browser.
 */
export function emulatorCheckout(t: ShopTestApp, razorpayOrderId: string, outcome: 'pay' | 'fail' = 'pay') {
  return fetch(`${t.baseUrl}/emulator/razorpay/checkout/${razorpayOrderId}/${outcome}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key_id: t.config.razorpay.keyId }),
  });
}

async function paidThroughEmulator(
  t: ShopTestApp,
  client: TestClient,
  created: Awaited<ReturnType<TestClient['post']>>,
) {
  if (created.statusCode !== 200) throw new Error(`create-payment failed: ${created.body}`);
  const razorpayOrderId = created.json<{ order_id: string }>().order_id;
  const paid = await emulatorCheckout(t, razorpayOrderId);
  const verified = await client.post('/api/verify-payment/', await paid.json());
  if (verified.statusCode !== 200) throw new Error(`verify-payment failed: ${verified.body}`);
  await t.emulator?.settled();
  return orderRow(t, razorpayOrderId);
}
