import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/support/processes';
import {
  catalogueRows,
  createOrder,
  createShopTestApp,
  effectsOf,
  INR_BILLING,
  newBuyer,
  orderRow,
  type ShopTestApp,
} from '../../../test/support/shop-fixtures';
import { orderEvents, orders } from '../db/schema/orders';
import { registerRouteSchemas } from '../http/route-schemas';
import { reconcileOnce } from '../orders/reconciler';
import { type RazorpayEmulator, registerRazorpayEmulator } from './emulator';
import { GatewayError, RazorpayGateway } from './gateway';
import { checkoutSignature } from './signatures';

/**
 * The app configured like production (real-looking keys, its own webhook secret) with RAZORPAY_API_URL pointing
 * at a separate Razorpay-compatible server: the emulator mounted on its own Fastify instance and port. The
 * remote never sends webhooks here, so only the browser's verify call or the reconciler can settle an order.
 */
const KEY_ID = 'rzp_test_R8kQ2mV7xYp3Lz';
const KEY_SECRET = 'f3Jk9LmQ2rT7vX1zB4nC8pD6';

let remote: FastifyInstance;
let emulator: RazorpayEmulator;
let remoteUrl: string;
let t: ShopTestApp;

beforeAll(async () => {
  remote = Fastify();
  registerRouteSchemas(remote);
  emulator = await registerRazorpayEmulator(remote, { keyId: KEY_ID, keySecret: KEY_SECRET, prefix: '/rzp' });
  const port = await freePort();
  await remote.listen({ port, host: '127.0.0.1' });
  remoteUrl = `http://127.0.0.1:${port}/rzp/razorpay`;
  t = await createShopTestApp({
    env: {
      RAZORPAY_KEY_ID: KEY_ID,
      RAZORPAY_KEY_SECRET: KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET: 'whsec_for_tests_only',
      RAZORPAY_API_URL: remoteUrl,
    },
  });
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

async function payRemotely(razorpayOrderId: string) {
  const response = await fetch(`${remoteUrl}/checkout/${razorpayOrderId}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key_id: KEY_ID }),
  });
  return (await response.json()) as {
    razorpay_order_id: string;
    razorpay_payment_id: string;
    razorpay_signature: string;
  };
}

describe('RazorpayGateway', () => {
  it('talks to any Razorpay-compatible server with Basic auth', async () => {
    const gateway = new RazorpayGateway({ keyId: KEY_ID, keySecret: KEY_SECRET, apiUrl: remoteUrl });
    const order = await gateway.createOrder({
      amount: 5000,
      currency: 'INR',
      receipt: 'r-1',
      notes: { a: 'b' },
    });
    expect(order).toMatchObject({
      entity: 'order',
      amount: 5000,
      currency: 'INR',
      receipt: 'r-1',
      status: 'created',
    });
    expect(await gateway.fetchOrder(order.id)).toMatchObject({ id: order.id, amount_due: 5000 });
    expect(await gateway.fetchOrderPayments(order.id)).toEqual([]);

    const paid = await payRemotely(order.id);
    expect(paid.razorpay_signature).toBe(checkoutSignature(KEY_SECRET, order.id, paid.razorpay_payment_id));
    const [payment] = await gateway.fetchOrderPayments(order.id);
    expect(payment).toMatchObject({ id: paid.razorpay_payment_id, status: 'captured', amount: 5000 });
    const refund = await gateway.refundPayment(paid.razorpay_payment_id);
    expect(refund).toMatchObject({ entity: 'refund', amount: 5000, payment_id: paid.razorpay_payment_id });
  });

  it('reports wrong keys and unreachable servers as gateway errors', async () => {
    const wrongKeys = new RazorpayGateway({ keyId: KEY_ID, keySecret: 'wrong', apiUrl: remoteUrl });
    await expect(
      wrongKeys.createOrder({ amount: 5000, currency: 'INR', receipt: 'x', notes: {} }),
    ).rejects.toMatchObject({ name: 'GatewayError', status: 401 });
    const nowhere = new RazorpayGateway({
      keyId: KEY_ID,
      keySecret: KEY_SECRET,
      apiUrl: `http://127.0.0.1:${await freePort()}`,
      timeoutMs: 2000,
    });
    await expect(nowhere.fetchOrder('order_x')).rejects.toBeInstanceOf(GatewayError);
  });
});

describe('the shop with real-looking keys and RAZORPAY_API_URL', () => {
  it('uses the real checkout script and mounts no emulator', async () => {
    const client = await t.client();
    expect((await client.get('/api/payments/config/')).json()).toEqual({
      keyId: KEY_ID,
      checkoutScript: 'https://checkout.razorpay.com/v1/checkout.js',
      testMode: false,
    });
    expect((await client.get('/emulator/checkout.js')).statusCode).toBe(404);
  });

  it('creates the Razorpay order on the configured server and verifies with its key secret', async () => {
    const { windows } = await catalogueRows(t);
    const { client, user } = await newBuyer(t);
    const created = await createOrder(client, windows.id, 'USD', { price: 0.5 });
    expect(created.statusCode).toBe(200);
    const body = created.json<{ order_id: string; razorpay_key_id: string; amount: number }>();
    expect(body).toMatchObject({ razorpay_key_id: KEY_ID, amount: 1999 });
    const local = await orderRow(t, body.order_id);
    expect(emulator.orders.get(body.order_id)).toMatchObject({
      amount: 1999,
      currency: 'USD',
      receipt: local.id,
      notes: { orderId: local.id, userId: user.id, toolId: windows.id },
    });

    const paid = await payRemotely(body.order_id);
    expect((await client.post('/api/verify-payment/', paid)).statusCode).toBe(200);
    expect((await effectsOf(t, local.id)).purchases).toBe(1);
  });

  it('lets the reconciler fulfil a paid order nobody reported, once', async () => {
    const { macos } = await catalogueRows(t);
    const { client } = await newBuyer(t);
    const paidOrder = (await createOrder(client, macos.id)).json<{ order_id: string }>().order_id;
    const unpaidOrder = (
      await (
        await newBuyer(t)
      ).client.post('/api/create-payment/', {
        toolId: macos.id,
        currency: 'INR',
        billingDetails: { currency: 'INR', address: 'Civil Lines', state: 'Uttar Pradesh' },
      })
    ).json<{ order_id: string }>().order_id;
    const paid = await payRemotely(paidOrder);

    // Too fresh: the browser and the webhook get their head start.
    expect(await reconcileOnce(t.ctx)).toMatchObject({ checked: 0 });

    t.clock.advance(3 * 60_000);
    const summary = await reconcileOnce(t.ctx);
    expect(summary).toMatchObject({ fulfilled: 1, errors: [] });
    expect(summary.unpaid).toBeGreaterThanOrEqual(1);
    const order = await orderRow(t, paidOrder);
    expect(order).toMatchObject({ status: 'paid', razorpayPaymentId: paid.razorpay_payment_id });
    const effects = await effectsOf(t, order.id);
    expect(effects).toMatchObject({ purchases: 1, licenses: 1 });
    expect(effects.deliveries).toHaveLength(1);
    const events = await t.ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.find((event) => event.kind === 'paid')?.detail).toMatchObject({ source: 'reconciler' });

    // The late browser verify is a no-op, and so is the next reconciler run.
    expect((await client.post('/api/verify-payment/', paid)).statusCode).toBe(200);
    const again = await reconcileOnce(t.ctx);
    expect(again.fulfilled).toBe(0);
    expect((await effectsOf(t, order.id)).deliveries).toHaveLength(1);
    expect((await orderRow(t, unpaidOrder)).status).toBe('created');

    // After a week an unpaid order is no longer asked about.
    t.clock.advance(8 * 24 * 60 * 60_000);
    const later = await reconcileOnce(t.ctx);
    const stillAsked = later.checked;
    expect(stillAsked).toBe(0);
  });

  it('closes an order whose Razorpay order was never created', async () => {
    const { windows } = await catalogueRows(t);
    const { user } = await newBuyer(t);
    const [stale] = await t.ctx.db
      .insert(orders)
      .values({
        userId: user.id,
        toolId: windows.id,
        razorpayOrderId: 'pending_00000000-0000-4000-8000-00000000abcd',
        amount: 149_900,
        currency: 'INR',
        billing: INR_BILLING,
        createdAt: new Date(t.clock.now().getTime() - 10 * 60_000),
      })
      .returning();
    const summary = await reconcileOnce(t.ctx);
    expect(summary.abandoned).toBe(1);
    const [row] = await t.ctx.db
      .select()
      .from(orders)
      .where(eq(orders.id, stale?.id ?? ''));
    expect(row?.status).toBe('failed');
  });
});

describe('gateway failure', () => {
  let broken: ShopTestApp;
  beforeAll(async () => {
    broken = await createShopTestApp({
      env: {
        RAZORPAY_KEY_ID: KEY_ID,
        RAZORPAY_KEY_SECRET: 'not-the-remote-secret',
        RAZORPAY_API_URL: remoteUrl,
      },
    });
  });
  afterAll(() => broken.close());

  it('answers 502 with a clear message and marks the local order failed', async () => {
    const { windows } = await catalogueRows(broken);
    const { client, user } = await newBuyer(broken);
    const response = await createOrder(client, windows.id);
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe(
      'We could not reach our payment provider. Please try again in a moment.',
    );
    const rows = await broken.ctx.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'failed' });
    expect(rows[0]?.failureReason).toContain('401');
  });
});
