import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../../test/support/client';
import { shopTestAppForFile } from '../../../../test/support/file-apps';
import {
  addPercentCoupon,
  buyThroughEmulator,
  catalogueRows,
  newBuyer,
} from '../../../../test/support/shop-fixtures';
import type { CheckoutQuote } from '../../../shared/checkout-quote';
import type { MyLicense } from '../../../shared/licenses';
import type { OrderDetail } from '../../../shared/order-detail';
import { cliActor } from '../../operator/audit';
import { refundOrder } from '../refund';

const t = shopTestAppForFile();
let windowsId: string;

beforeAll(async () => {
  windowsId = (await catalogueRows(t)).windows.id;
  await addPercentCoupon(t, 'LAUNCH-20', 20, 'order-page-tests');
});

/** Orders, pays on the emulator and verifies as the browser does; returns the local order id. */
const paidOrder = async (client: TestClient, extra: Record<string, unknown> = {}) =>
  (await buyThroughEmulator(t, client, windowsId, extra)).id;

describe('GET /api/orders/:orderId', () => {
  it('shows its owner the lines, coupon, tax lines, payment, history, invoice and license, as quoted', async () => {
    const { client } = await newBuyer(t);
    const quote = (
      await client.post('/api/checkout/quote', {
        toolId: windowsId,
        currency: 'INR',
        state: 'Rajasthan',
        couponCode: 'LAUNCH-20',
      })
    ).json<CheckoutQuote>();
    const orderId = await paidOrder(client, { couponCode: 'LAUNCH-20' });

    const answer = await client.get(`/api/orders/${orderId}`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const order = answer.json<OrderDetail>();
    expect(order).toMatchObject({
      id: orderId,
      status: 'paid',
      currency: 'INR',
      lines: [
        { description: 'PDF Utility Toolkit (Windows)', quantity: 1, unitPrice: 149_900, amount: 149_900 },
      ],
      listPrice: quote.listPrice,
      coupon: { code: 'LAUNCH-20' },
      discount: quote.discount,
      taxableValue: quote.taxableValue,
      taxes: quote.taxes,
      total: quote.total,
      billing: { state: 'Rajasthan', country: 'India' },
      payment: { method: 'card' },
      license: { status: 'active', edition: null, devices: [] },
    });
    expect(order.payment.reference).toMatch(/^pay_/);
    // The license by the id My Tools lists it under, where its edition and upgrades are.
    const listed = (await client.get('/api/my-licenses/')).json<MyLicense[]>();
    expect(listed.map((license) => license.licenseId)).toContain(order.license?.id);
    expect(order.history.map((event) => event.label)).toEqual([
      'Order created',
      'Paid; license and delivery email issued',
    ]);
    expect(order.documents).toEqual([
      expect.objectContaining({ kind: 'invoice', url: `/api/orders/${orderId}/invoice.pdf` }),
    ]);
    expect(order.refund).toBeNull();
  });

  it('shows a refunded order’s refunded amount and its credit note', async () => {
    const { client } = await newBuyer(t);
    const orderId = await paidOrder(client);
    await refundOrder(t.ctx, { orderId, source: 'admin', reason: 'test', actor: cliActor('tester') });

    const order = (await client.get(`/api/orders/${orderId}`)).json<OrderDetail>();
    expect(order.status).toBe('refunded');
    const creditNote = order.documents.find((doc) => doc.kind === 'credit-note');
    expect(creditNote?.number).toMatch(/\S/);
    expect(order.refund).toEqual({ amount: order.amountDue, creditNote: creditNote?.number });
  });

  it('is 404 for anyone but the owner, for an unknown id and for a malformed one; 401 signed out', async () => {
    const owner = await newBuyer(t);
    const orderId = await paidOrder(owner.client);
    const stranger = await newBuyer(t);
    const notTheirs = await stranger.client.get(`/api/orders/${orderId}`);
    const unknown = await owner.client.get('/api/orders/00000000-0000-4000-8000-000000000000');
    const malformed = await owner.client.get('/api/orders/not-an-id');
    for (const answer of [notTheirs, unknown, malformed]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.body).not.toContain(orderId);
    }
    expect(notTheirs.body).toBe(unknown.body);
    const anonymous = await t.client();
    expect((await anonymous.get(`/api/orders/${orderId}`)).statusCode).toBe(401);
  });
});
