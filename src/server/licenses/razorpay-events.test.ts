import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { fingerprint, licenseApiCall } from '../../../test/support/license-fixtures';
import {
  catalogueRows,
  createOrder,
  downloadLinkIn,
  effectsOf,
  emulatorCheckout,
  eventually,
  newBuyer,
  orderRow,
} from '../../../test/support/shop-fixtures';
import { LICENSE_MESSAGES, type LicenseAnswer } from '../../shared/licenses';
import { creditNotes } from '../db/schema/invoices';
import { licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { orderEvents, purchases } from '../db/schema/orders';
import { DomainError } from '../kernel/domain-error';
import { refundOrder } from '../orders/refund';
import { revealLicenseKey } from './secrets-at-rest';

/**
 * What Razorpay does without the shop asking (a bank's chargeback, a late UPI capture, a refund idempotency
 * retry), driven through the emulator over real HTTP: its signed webhooks reach the app as Razorpay's would.
 */
const t = shopTestAppForFile();
let catalogue: Awaited<ReturnType<typeof catalogueRows>>;
beforeAll(async () => {
  catalogue = await catalogueRows(t);
});

const emulatorAuth = () =>
  `Basic ${Buffer.from(`${t.config.razorpay.keyId}:${t.config.razorpay.keySecret}`).toString('base64')}`;

async function emulator(
  path: string,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${t.baseUrl}/emulator/razorpay${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: emulatorAuth(), ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Buys the Windows tool on the emulator's checkout; the emulator's own webhook fulfils it. */
async function buyOnEmulator() {
  const { client, user } = await newBuyer(t);
  const created = (await createOrder(client, catalogue.windows.id)).json<{ order_id: string }>();
  const paid = await emulatorCheckout(t, created.order_id);
  const { razorpay_payment_id: paymentId } = (await paid.json()) as { razorpay_payment_id: string };
  const order = await eventually(async () => {
    const row = await orderRow(t, created.order_id);
    return row.status === 'paid' ? row : undefined;
  });
  const [license] = await t.ctx.db
    .select({ id: licenses.id, licenseKeySealed: licenses.licenseKeySealed, status: licenses.status })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .where(eq(purchases.orderId, order.id));
  const licenseKey = license && revealLicenseKey(t.ctx.dataSecrets, license);
  if (!license || !licenseKey) throw new Error('no license for the order');
  const delivery = (await effectsOf(t, order.id)).deliveries[0];
  return {
    client,
    user,
    order,
    paymentId,
    licenseKey,
    licenseId: license.id,
    downloadLink: downloadLinkIn(delivery?.text ?? ''),
  };
}

async function activate(licenseKey: string, machine: string): Promise<LicenseAnswer> {
  return (
    await licenseApiCall(t, 'activate', { licenseKey, toolId: catalogue.windows.id, fingerprint: machine })
  ).json();
}

const download = (link: string) =>
  t.app.inject({ url: new URL(link).pathname, headers: { accept: 'application/json' } });

async function validate(licenseKey: string, machine: string): Promise<LicenseAnswer> {
  return (
    await licenseApiCall(t, 'validate', { licenseKey, toolId: catalogue.windows.id, fingerprint: machine })
  ).json();
}

describe('payment disputes', () => {
  it('suspend the license while open, restore it when won, and revoke it when lost', async () => {
    const bought = await buyOnEmulator();
    const machine = fingerprint();
    const activated = await t.app.inject({
      method: 'POST',
      url: '/api/licenses/activate',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        licenseKey: bought.licenseKey,
        toolId: catalogue.windows.id,
        fingerprint: machine,
      }),
    });
    expect(activated.json()).toMatchObject({ valid: true });

    // Razorpay's webhook is delivered in the background: wait for it rather than polling the license API into
    // its own rate limit.
    const codeEventually = async (code: string) => {
      await t.emulator?.settled();
      return eventually(async () => {
        const answer = await validate(bought.licenseKey, machine);
        return answer.code === code ? answer : undefined;
      });
    };

    expect((await emulator(`/test/payments/${bought.paymentId}/dispute`, { status: 'created' })).status).toBe(
      200,
    );
    expect(await codeEventually('SUSPENDED')).toEqual({ valid: false, code: 'SUSPENDED' });
    const credentials = () =>
      bought.client.post('/api/send-tool-credentials/', { toolId: catalogue.windows.id });
    const download = () =>
      t.app.inject({ url: new URL(bought.downloadLink).pathname, headers: { accept: 'application/json' } });
    const refused = await credentials();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(LICENSE_MESSAGES.licenseSuspended);
    expect((await download()).statusCode).toBe(404);

    await emulator(`/test/payments/${bought.paymentId}/dispute`, { status: 'won' });
    expect(await codeEventually('VALID')).toMatchObject({ valid: true });
    expect((await credentials()).statusCode).toBe(200);
    expect((await download()).statusCode).toBe(200);
    await emulator(`/test/payments/${bought.paymentId}/dispute`, { status: 'created' });
    await codeEventually('SUSPENDED');
    await emulator(`/test/payments/${bought.paymentId}/dispute`, { status: 'lost' });
    expect(await codeEventually('REVOKED')).toEqual({ valid: false, code: 'REVOKED' });

    await t.emulator?.settled();
    const kinds = (
      await t.ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, bought.order.id))
    ).map((event) => event.kind);
    expect(kinds.filter((kind) => kind.startsWith('dispute-'))).toEqual([
      'dispute-created',
      'dispute-won',
      'dispute-created',
      'dispute-lost',
    ]);
  });
});

describe('refunds', () => {
  it('revoke the license at once when the shop refunds, and Razorpay echoing the refund changes nothing', async () => {
    const bought = await buyOnEmulator();
    const machine = fingerprint();
    await activate(bought.licenseKey, machine);
    expect((await validate(bought.licenseKey, machine)).code).toBe('VALID');

    const refunded = await refundOrder(t.ctx, {
      orderId: bought.order.id,
      source: 'admin',
      reason: 'Test refund',
    });
    expect(refunded.refundId).toMatch(/^rfnd_/);
    // Revoked by the refund's own transaction: no waiting on a cache or a webhook.
    expect(await validate(bought.licenseKey, machine)).toEqual({ valid: false, code: 'REVOKED' });
    const [license] = await t.ctx.db.select().from(licenses).where(eq(licenses.id, bought.licenseId));
    expect(license?.status).toBe('revoked');

    // Razorpay's refund.created and refund.processed for this refund arrive and are recognised as done.
    await t.emulator?.settled();
    const refundEvents = (
      await t.ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, bought.order.id))
    )
      .map((event) => event.kind)
      .filter((kind) => kind === 'refunded');
    expect(refundEvents).toHaveLength(1);
    expect(
      t.emulator?.sentWebhooks.filter((hook) => hook.event.startsWith('refund.')).map((hook) => hook.status),
    ).toEqual(expect.arrayContaining([200, 200]));
  });

  it('made in the Razorpay Dashboard goes through the same refund path from its webhook', async () => {
    const bought = await buyOnEmulator();
    const machine = fingerprint();
    await activate(bought.licenseKey, machine);
    // Remembered by this instance now; the refund's webhook must make it forget.
    expect((await validate(bought.licenseKey, machine)).code).toBe('VALID');
    expect((await emulator(`/test/payments/${bought.paymentId}/dashboard-refund`)).status).toBe(200);
    await t.emulator?.settled();
    const answer = await eventually(async () => {
      const current = await validate(bought.licenseKey, machine);
      return current.code === 'REVOKED' ? current : undefined;
    });
    expect(answer).toEqual({ valid: false, code: 'REVOKED' });

    await t.emulator?.settled();
    expect((await orderRow(t, bought.order.razorpayOrderId)).status).toBe('refunded');
    const events = await t.ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, bought.order.id));
    const refund = events.filter((event) => event.kind === 'refunded');
    expect(refund).toHaveLength(1);
    expect(refund[0]?.detail).toMatchObject({ source: 'razorpay', refundedEarlier: true });
    const notices = await t.ctx.db
      .select()
      .from(outbox)
      .where(eq(outbox.ref, `order:${bought.order.id}`));
    expect(notices.filter((mail) => mail.kind === 'refund-notice')).toHaveLength(1);
    expect((await download(bought.downloadLink)).statusCode).toBe(404);
  });
});

describe('refunds racing', () => {
  it('record one refund and one credit note; the loser is told the order is already refunded', async () => {
    const bought = await buyOnEmulator();
    const refund = () => refundOrder(t.ctx, { orderId: bought.order.id, source: 'admin', reason: 'Race' });
    // Two operators at once, while Razorpay's webhooks for the refund arrive as well.
    const outcomes = await Promise.allSettled([refund(), refund()]);
    await t.emulator?.settled();
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(DomainError);
    expect(lost[0]).toMatchObject({
      code: 'refused',
      message: `Order ${bought.order.id} is already refunded.`,
    });

    // And a Dashboard refund's webhook after that is recognised as done.
    expect((await emulator(`/test/payments/${bought.paymentId}/dashboard-refund`)).status).toBeLessThan(500);
    await t.emulator?.settled();
    const notes = await t.ctx.db.select().from(creditNotes).where(eq(creditNotes.orderId, bought.order.id));
    expect(notes).toHaveLength(1);
    const events = await t.ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, bought.order.id));
    expect(events.filter((event) => event.kind === 'refunded')).toHaveLength(1);
  });
});

describe('a failed payment captured late', () => {
  it('is fulfilled once, by the payment.captured webhook', async () => {
    const { client } = await newBuyer(t);
    const created = (await createOrder(client, catalogue.windows.id)).json<{ order_id: string }>();
    const failed = await emulatorCheckout(t, created.order_id, 'fail');
    const paymentId = ((await failed.json()) as { error: { metadata: { payment_id: string } } }).error
      .metadata.payment_id;
    await t.emulator?.settled();
    expect((await orderRow(t, created.order_id)).status).toBe('created');

    expect((await emulator(`/test/payments/${paymentId}/late-capture`)).status).toBe(200);
    const order = await eventually(async () => {
      const row = await orderRow(t, created.order_id);
      return row.status === 'paid' ? row : undefined;
    });
    expect(order.razorpayPaymentId).toBe(paymentId);
    await t.emulator?.settled();
    const effects = await effectsOf(t, order.id);
    expect(effects).toMatchObject({ purchases: 1, licenses: 1 });
    expect(effects.deliveries).toHaveLength(1);
  });
});

describe('refund idempotency', () => {
  it('gives the same refund for a repeated X-Refund-Idempotency key and no second refund', async () => {
    const bought = await buyOnEmulator();
    const first = await t.ctx.gateway.refundPayment(bought.paymentId, {
      idempotencyKey: `refund:${bought.order.id}`,
    });
    const again = await t.ctx.gateway.refundPayment(bought.paymentId, {
      idempotencyKey: `refund:${bought.order.id}`,
    });
    expect(again.id).toBe(first.id);
    await expect(t.ctx.gateway.refundPayment(bought.paymentId)).rejects.toThrow(/already refunded/);
  });
});
