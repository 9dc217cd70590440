import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { openedMails } from '../../../test/support/mail';
import {
  addTool,
  buyTool,
  catalogueRows,
  createOrder,
  effectsOf,
  emulatorCheckout,
  eventually,
  fakePaymentId,
  newBuyer,
  orderRow,
  paymentEvent,
  postWebhook,
  signedCheckout,
} from '../../../test/support/shop-fixtures';
import { licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { orderEvents, orders, purchases } from '../db/schema/orders';
import { webhookEvents } from '../db/schema/payments';
import { LICENSE_KEY_PATTERN } from '../licenses/create';
import { revealLicenseKey } from '../licenses/secrets-at-rest';
import { EMULATOR_DECLINE_DESCRIPTION } from '../payments/emulator';
import { razorpayEventSchema } from '../payments/razorpay-event';
import { webhookSignature } from '../payments/signatures';
import { applyRazorpayEvent } from './razorpay-events';

const t = shopTestAppForFile();
let catalogue: Awaited<ReturnType<typeof catalogueRows>>;

beforeAll(async () => {
  catalogue = await catalogueRows(t);
});

type CreateResponse = {
  status: string;
  order_id: string;
  razorpay_key_id: string;
  amount: number;
  currency: string;
  name: string;
  email: string;
  phone: string;
  message: string;
};

/** Pays on the emulator the way its checkout script does, over real HTTP. */
async function payOnEmulator(razorpayOrderId: string, outcome: 'pay' | 'fail' = 'pay') {
  const response = await emulatorCheckout(t, razorpayOrderId, outcome);
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown> & {
      razorpay_order_id: string;
      razorpay_payment_id: string;
      razorpay_signature: string;
    },
  };
}

describe('payments config', () => {
  it('points the page at the emulator checkout in test mode', async () => {
    const client = await t.client();
    const config = await client.get('/api/payments/config/');
    expect(config.json()).toEqual({
      keyId: 'rzp_test_emulator',
      checkoutScript: '/emulator/checkout.js',
      testMode: true,
    });
    const script = await fetch(`${t.baseUrl}/emulator/checkout.js`);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    const source = await script.text();
    expect(source).toContain('Razorpay Test Checkout');
    expect(source).toContain('Simulate success');
    expect(source).toContain('Simulate failure');
  });
});

describe('POST /api/create-payment/', () => {
  it('needs a logged-in user', async () => {
    const client = await t.client();
    const response = await createOrder(client, catalogue.windows.id);
    expect(response.statusCode).toBe(401);
  });

  it('prices the order from the catalogue and ignores a tampered price', async () => {
    const { user, client } = await newBuyer(t);
    const response = await createOrder(client, catalogue.windows.id, 'INR', { price: 1, toolName: 'Cheap' });
    expect(response.statusCode).toBe(200);
    const body = response.json<CreateResponse>();
    expect(body).toEqual({
      status: 'success',
      order_id: expect.stringMatching(/^order_\w{14}$/),
      razorpay_key_id: t.config.razorpay.keyId,
      amount: 149_900,
      currency: 'INR',
      name: user.name,
      email: user.email,
      phone: user.phone,
      message: 'Order created',
    });
    const order = await orderRow(t, body.order_id);
    expect(order).toMatchObject({ amount: 149_900, currency: 'INR', status: 'created', userId: user.id });
    expect(order.billing).toEqual({
      address: '3rd Floor, Ganpati Plaza, MI Road, Jaipur',
      state: 'Rajasthan',
      country: 'India',
      gstin: '',
      currency: 'INR',
    });
    const remote = t.emulator?.orders.get(body.order_id);
    expect(remote).toMatchObject({ amount: 149_900, currency: 'INR', receipt: order.id });
    expect(remote?.notes).toEqual({ orderId: order.id, userId: user.id, toolId: catalogue.windows.id });
  });

  it('charges USD from priceUSD, or from the INR price at 75 per dollar', async () => {
    const { client } = await newBuyer(t);
    const withUsd = await createOrder(client, catalogue.macos.id, 'USD', { price: 0.01 });
    expect(withUsd.json<CreateResponse>()).toMatchObject({ amount: 1999, currency: 'USD' });

    const inrOnly = await addTool(t, { priceInrPaise: 100_000, priceUsdCents: null });
    const fallback = await createOrder(client, inrOnly.id, 'USD');
    expect(fallback.json<CreateResponse>()).toMatchObject({ amount: 1333, currency: 'USD' });
  });

  it('refuses a coming-soon tool, an unknown tool and bad billing without creating an order', async () => {
    const { user, client } = await newBuyer(t);
    const soon = await createOrder(client, catalogue.comingSoon.id);
    expect(soon.statusCode).toBe(409);
    const unknown = await createOrder(client, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    const noAddress = await client.post('/api/create-payment/', {
      toolId: catalogue.windows.id,
      currency: 'INR',
      billingDetails: { currency: 'INR', address: '', state: '', country: '', gstin: '' },
    });
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json().fieldErrors).toMatchObject({
      'billingDetails.address': 'Address is required',
      'billingDetails.state': 'State is required',
    });
    const noCountry = await client.post('/api/create-payment/', {
      toolId: catalogue.windows.id,
      currency: 'USD',
      billingDetails: { currency: 'USD', country: ' ' },
    });
    expect(noCountry.json().fieldErrors).toMatchObject({ 'billingDetails.country': 'Country is required' });
    const unknownCountry = await client.post('/api/create-payment/', {
      toolId: catalogue.windows.id,
      currency: 'USD',
      billingDetails: { currency: 'USD', country: 'Atlantis' },
    });
    expect(unknownCountry.statusCode).toBe(400);
    expect(unknownCountry.json().fieldErrors).toMatchObject({
      'billingDetails.country': 'Please choose a country from the list',
    });
    const rows = await t.ctx.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(rows).toHaveLength(0);
  });

  it('refuses a tool the buyer already owns', async () => {
    const { client } = await newBuyer(t);
    await buyTool(t, client, catalogue.windows.id);
    const again = await createOrder(client, catalogue.windows.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already own this tool.');
  });

  it('allows ten payment attempts a minute per user', async () => {
    const { client } = await newBuyer(t);
    for (let i = 0; i < 10; i++) expect((await createOrder(client, catalogue.macos.id)).statusCode).toBe(200);
    const eleventh = await createOrder(client, catalogue.macos.id);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.headers['retry-after']).toBeDefined();
  });
});

describe('POST /api/verify-payment/', () => {
  it('fulfils a correctly signed payment: purchase, license key and delivery email', async () => {
    const { user, client } = await newBuyer(t);
    const purchasedFlag = async (toolId: string) =>
      (await client.get('/api/alltools/'))
        .json<Array<{ _id: string; purchased: boolean }>>()
        .find((tool) => tool._id === toolId)?.purchased;
    expect(await purchasedFlag(catalogue.windows.id)).toBe(false);
    const created = (await createOrder(client, catalogue.windows.id)).json<CreateResponse>();
    const paid = await payOnEmulator(created.order_id);
    expect(paid.status).toBe(200);

    const verified = await client.post('/api/verify-payment/', {
      ...paid.body,
      toolId: catalogue.windows.id,
      currency: 'INR',
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ status: 'success', message: 'Payment verified successfully' });

    const order = await orderRow(t, created.order_id);
    expect(order).toMatchObject({ status: 'paid', razorpayPaymentId: paid.body.razorpay_payment_id });
    const effects = await effectsOf(t, order.id);
    expect(effects).toMatchObject({ purchases: 1, licenses: 1 });
    expect(effects.deliveries).toHaveLength(1);
    const mail = effects.deliveries[0];
    expect(mail?.to).toBe(user.email);
    expect(mail?.text).toContain('PDF Utility Toolkit (Windows)');
    expect(mail?.text).toContain('₹1,499.00');
    expect(mail?.text).toMatch(/[2-9A-HJKMNP-Z]{5}(-[2-9A-HJKMNP-Z]{5}){3}/);
    expect(mail?.text).toContain(`${t.baseUrl}/api/downloads/`);
    expect(mail?.text).toContain('valid for 3 hours');

    // The catalogue this instance answered a moment ago shows the purchase at once.
    expect(await purchasedFlag(catalogue.windows.id)).toBe(true);
    expect(await purchasedFlag(catalogue.macos.id)).toBe(false);

    // The emulator's order.paid webhook arrives a moment later and changes nothing.
    await t.emulator?.settled();
    expect(t.emulator?.sentWebhooks.at(-1)).toMatchObject({ event: 'order.paid', status: 200 });
    const after = await effectsOf(t, order.id);
    expect(after).toMatchObject({ purchases: 1, licenses: 1 });
    expect(after.deliveries).toHaveLength(1);
  });

  it('refuses a wrong signature, a signature for another payment id and a foreign order', async () => {
    const { client } = await newBuyer(t);
    const created = (await createOrder(client, catalogue.macos.id)).json<CreateResponse>();
    const good = signedCheckout(t.config.razorpay.keySecret, created.order_id);

    const tampered = await client.post('/api/verify-payment/', {
      ...good,
      razorpay_signature: good.razorpay_signature.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
    });
    expect(tampered.statusCode).toBe(400);
    const otherSecret = signedCheckout('not-the-key-secret', created.order_id);
    expect((await client.post('/api/verify-payment/', otherSecret)).statusCode).toBe(400);
    const swappedPayment = await client.post('/api/verify-payment/', {
      ...good,
      razorpay_payment_id: fakePaymentId(),
    });
    expect(swappedPayment.statusCode).toBe(400);
    const notHex = await client.post('/api/verify-payment/', { ...good, razorpay_signature: 'zz' });
    expect(notHex.statusCode).toBe(400);

    const intruder = await newBuyer(t);
    const foreign = await intruder.client.post('/api/verify-payment/', good);
    expect(foreign.statusCode).toBe(404);

    const order = await orderRow(t, created.order_id);
    expect(order.status).toBe('created');
    expect(await effectsOf(t, order.id)).toMatchObject({ purchases: 0, licenses: 0, deliveries: [] });
  });

  it('fulfils exactly once when ten verify calls and the webhook race', async () => {
    const { client } = await newBuyer(t);
    const created = (await createOrder(client, catalogue.macos.id)).json<CreateResponse>();
    const paid = await payOnEmulator(created.order_id);
    const order = await orderRow(t, created.order_id);
    const event = paymentEvent('order.paid', order, paid.body.razorpay_payment_id);

    const responses = await Promise.all([
      ...Array.from({ length: 10 }, () => client.post('/api/verify-payment/', paid.body)),
      postWebhook(t, event),
    ]);
    for (const response of responses) expect(response.statusCode).toBe(200);
    await t.emulator?.settled();

    const effects = await effectsOf(t, order.id);
    expect(effects.purchases).toBe(1);
    expect(effects.licenses).toBe(1);
    expect(effects.deliveries).toHaveLength(1);
    const paidEvents = await t.ctx.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.id))
      .then((rows) => rows.filter((row) => row.kind === 'paid'));
    expect(paidEvents).toHaveLength(1);
  });

  it('refunds a second paid order for a tool the buyer already owns', async () => {
    const { client } = await newBuyer(t);
    const first = (await createOrder(client, catalogue.windows.id)).json<CreateResponse>();
    const second = (await createOrder(client, catalogue.windows.id)).json<CreateResponse>();
    const paidFirst = await payOnEmulator(first.order_id);
    const paidSecond = await payOnEmulator(second.order_id);
    expect((await client.post('/api/verify-payment/', paidFirst.body)).statusCode).toBe(200);
    const duplicate = await client.post('/api/verify-payment/', paidSecond.body);
    expect(duplicate.statusCode).toBe(409);

    const secondOrder = await orderRow(t, second.order_id);
    expect(secondOrder.status).toBe('refunded');
    expect(await effectsOf(t, secondOrder.id)).toMatchObject({ purchases: 0, deliveries: [] });
    expect(t.emulator?.payments.get(paidSecond.body.razorpay_payment_id)?.status).toBe('refunded');
    await t.emulator?.settled();

    // The one refund path: one 'refunded' event naming its source, and the customer's refund notice.
    const events = await t.ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, secondOrder.id));
    const refunds = events.filter((event) => event.kind === 'refunded');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.detail).toMatchObject({ source: 'duplicate-payment', purchaseId: null });
    const notices = openedMails(
      t.ctx,
      await t.ctx.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.ref, `order:${secondOrder.id}`), eq(outbox.kind, 'refund-notice'))),
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).not.toContain('no longer work');
  });
});

describe('POST /api/razorpay/webhook/', () => {
  it('fulfils on its own when the browser never verifies', async () => {
    const { client } = await newBuyer(t);
    const created = (await createOrder(client, catalogue.windows.id)).json<CreateResponse>();
    const paid = await payOnEmulator(created.order_id);
    expect(paid.status).toBe(200);
    await t.emulator?.settled();

    const order = await orderRow(t, created.order_id);
    expect(order).toMatchObject({ status: 'paid', razorpayPaymentId: paid.body.razorpay_payment_id });
    const effects = await effectsOf(t, order.id);
    expect(effects).toMatchObject({ purchases: 1, licenses: 1 });
    expect(effects.deliveries).toHaveLength(1);
    const [license] = await t.ctx.db
      .select({ licenseKeySealed: licenses.licenseKeySealed })
      .from(licenses)
      .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
      .where(eq(purchases.orderId, order.id));
    const key = license && revealLicenseKey(t.ctx.dataSecrets, license);
    expect(key).toMatch(LICENSE_KEY_PATTERN);
    expect(effects.deliveries[0]?.text).toContain(key);
  });

  it('is one operation the route hands its event to: applied without HTTP, once per event id', async () => {
    const { client } = await newBuyer(t);
    const created = (await createOrder(client, catalogue.windows.id)).json<CreateResponse>();
    const order = await orderRow(t, created.order_id);
    const event = {
      ...razorpayEventSchema.parse(JSON.parse(paymentEvent('order.paid', order))),
      id: 'evt_direct01',
    };

    expect((await applyRazorpayEvent(t.ctx, event)).result).toBe('fulfilled');
    expect((await applyRazorpayEvent(t.ctx, event)).result).toBe('duplicate');
    expect(await orderRow(t, created.order_id)).toMatchObject({ status: 'paid' });
    const effects = await effectsOf(t, order.id);
    expect(effects).toMatchObject({ purchases: 1, licenses: 1 });
    expect(effects.deliveries).toHaveLength(1);
    const recorded = await t.ctx.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.eventId, 'evt_direct01'));
    expect(recorded).toHaveLength(1);
  });

  it('rejects a bad signature and a re-serialised body with 400, changing nothing', async () => {
    const { client } = await newBuyer(t);
    const created = (await createOrder(client, catalogue.macos.id)).json<CreateResponse>();
    const order = await orderRow(t, created.order_id);
    const raw = paymentEvent('order.paid', order);
    const eventsBefore = (await t.ctx.db.select().from(webhookEvents)).length;

    const wrongSecret = await postWebhook(t, raw, { secret: 'some-other-secret' });
    expect(wrongSecret.statusCode).toBe(400);
    expect(wrongSecret.json().code).toBe('invalid_signature');

    const reserialised = JSON.stringify(JSON.parse(raw), null, 2);
    const signatureOfOriginal = webhookSignature(t.config.razorpay.webhookSecret ?? '', raw);
    const changed = await postWebhook(t, reserialised, { signature: signatureOfOriginal });
    expect(changed.statusCode).toBe(400);

    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/razorpay/webhook/',
      headers: { 'content-type': 'application/json' },
      payload: raw,
    });
    expect(missing.statusCode).toBe(400);

    expect((await orderRow(t, created.order_id)).status).toBe('created');
    expect(await effectsOf(t, order.id)).toMatchObject({ purchases: 0, deliveries: [] });
    expect(await t.ctx.db.select().from(webhookEvents)).toHaveLength(eventsBefore);
  });

  it('handles a redelivered event id only once', async () => {
    const { client } = await newBuyer(t);
    const created = (await createOrder(client, catalogue.macos.id)).json<CreateResponse>();
    const order = await orderRow(t, created.order_id);
    const eventId = 'evt_Redelivered0001';
    const failed = paymentEvent('payment.failed', order);

    const first = await postWebhook(t, failed, { eventId });
    expect(first.json()).toEqual({ status: 'ok', result: 'payment-failed' });
    const again = await postWebhook(t, failed, { eventId });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'ok', result: 'duplicate' });

    const events = await t.ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.filter((event) => event.kind === 'payment-failed')).toHaveLength(1);
    const updated = await orderRow(t, created.order_id);
    expect(updated).toMatchObject({ status: 'created', failureReason: 'Your card was declined.' });

    // A failed attempt leaves the order open: paying again on the same order still fulfils it.
    const paid = paymentEvent('order.paid', order);
    expect((await postWebhook(t, paid)).json()).toEqual({ status: 'ok', result: 'fulfilled' });
    expect((await postWebhook(t, paid)).json()).toEqual({ status: 'ok', result: 'already-paid' });
    expect(await effectsOf(t, order.id)).toMatchObject({ purchases: 1, licenses: 1 });
  });

  it('ignores an amount that differs from the order', async () => {
    const { client } = await newBuyer(t);
    const created = (await createOrder(client, catalogue.macos.id)).json<CreateResponse>();
    const order = await orderRow(t, created.order_id);
    const cheap = paymentEvent('payment.captured', { ...order, amount: 100 });
    expect((await postWebhook(t, cheap)).json()).toEqual({ status: 'ok', result: 'amount-mismatch' });
    expect((await orderRow(t, created.order_id)).status).toBe('created');
  });

  it('acknowledges events for unknown orders and events it does not use', async () => {
    const unknown = paymentEvent('order.paid', {
      razorpayOrderId: 'order_NotOurs0000001',
      amount: 100,
      currency: 'INR',
    });
    expect((await postWebhook(t, unknown)).json()).toEqual({ status: 'ok', result: 'unknown-order' });
    const other = JSON.stringify({ event: 'refund.created', payload: {} });
    expect((await postWebhook(t, other)).json()).toEqual({ status: 'ok', result: 'ignored' });
    const notJson = await postWebhook(t, 'not json');
    expect(notJson.statusCode).toBe(400);
    const withCharset = await postWebhook(t, other, { contentType: 'application/json; charset=utf-8' });
    expect(withCharset.json()).toEqual({ status: 'ok', result: 'ignored' });
    const form = await postWebhook(t, 'event=order.paid', {
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.statusCode).toBe(415);
  });
});

describe('emulator Orders API', () => {
  it('refuses requests without the key id and secret', async () => {
    const anonymous = await fetch(`${t.baseUrl}/emulator/razorpay/v1/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 5000, currency: 'INR' }),
    });
    expect(anonymous.status).toBe(401);
    const wrong = await fetch(`${t.baseUrl}/emulator/razorpay/v1/orders/order_x`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${t.config.razorpay.keyId}:guess`).toString('base64')}`,
      },
    });
    expect(wrong.status).toBe(401);
  });
});

describe('emulator checkout failure', () => {
  it('answers with the decline error and records the failure through its webhook', async () => {
    const { client } = await newBuyer(t);
    const created = (await createOrder(client, catalogue.windows.id)).json<CreateResponse>();
    const failed = await payOnEmulator(created.order_id, 'fail');
    expect(failed.body).toMatchObject({
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: EMULATOR_DECLINE_DESCRIPTION,
        reason: 'payment_failed',
        metadata: { order_id: created.order_id },
      },
    });
    await t.emulator?.settled();
    const order = await eventually(async () => {
      const row = await orderRow(t, created.order_id);
      return row.failureReason ? row : undefined;
    });
    expect(order).toMatchObject({ status: 'created', failureReason: EMULATOR_DECLINE_DESCRIPTION });
  });
});
