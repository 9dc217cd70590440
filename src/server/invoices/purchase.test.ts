import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import { appWithSmtp } from '../../../test/support/file-apps';
import { pdfText } from '../../../test/support/invoices-helpers';
import { deliverDueMail } from '../../../test/support/mail';
import {
  addTool,
  createShopTestApp,
  emulatorCheckout,
  newBuyer,
  orderRow,
} from '../../../test/support/shop-fixtures';
import type { OrderHistoryOrder } from '../../shared/order-history';
import { invoices } from '../db/schema/invoices';
import { refundOrder } from '../orders/refund';
import type { TaxDocument } from './document';
import { EXPORT_ENDORSEMENT } from './tax';

const LUT_ARN = 'AD080423000123X';
const { t, smtp } = appWithSmtp(createShopTestApp, { env: { LUT_ARN } });
let toolId: string;

beforeAll(async () => {
  const tool = await addTool(t, {
    name: 'GST Return Helper',
    device: 'Windows',
    priceInrPaise: 1499_00,
    priceUsdCents: 19_99,
  });
  toolId = tool.id;
});

const flat = (text: string) => text.replace(/\s+/g, ' ');

/** Buys the tool as the browser does: create-payment, pay on the emulator over HTTP, verify-payment. */
async function purchase(client: TestClient, billingDetails: Record<string, string>) {
  const created = await client.post('/api/create-payment/', {
    toolId,
    currency: billingDetails.currency,
    billingDetails,
  });
  expect(created.statusCode, created.body).toBe(200);
  const razorpayOrderId = created.json<{ order_id: string }>().order_id;
  const paid = await emulatorCheckout(t, razorpayOrderId);
  expect(paid.status).toBe(200);
  const verified = await client.post('/api/verify-payment/', await paid.json());
  expect(verified.statusCode, verified.body).toBe(200);
  return orderRow(t, razorpayOrderId);
}

async function ownOrders(client: TestClient): Promise<OrderHistoryOrder[]> {
  const response = await client.get('/api/orders/');
  expect(response.statusCode).toBe(200);
  return response.json<OrderHistoryOrder[]>();
}

async function invoiceText(client: TestClient, orderId: string): Promise<string> {
  const summary = (await ownOrders(client)).find((order) => order.id === orderId);
  expect(summary?.invoiceUrl).toBeTruthy();
  const response = await client.get(summary?.invoiceUrl ?? '');
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  return flat(await pdfText(response.rawPayload));
}

async function storedInvoice(orderId: string): Promise<TaxDocument> {
  const [row] = await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, orderId));
  if (!row) throw new Error(`no invoice for order ${orderId}`);
  return row.document as TaxDocument;
}

const addsUp = (document: TaxDocument) =>
  document.taxableValue + document.taxes.reduce((sum, line) => sum + line.amount, 0);

describe('a tax invoice for every purchase', () => {
  it('charges CGST + SGST to a buyer in Rajasthan', async () => {
    const { client } = await newBuyer(t);
    const order = await purchase(client, {
      currency: 'INR',
      address: '12 Civil Lines, Jaipur',
      state: 'Rajasthan',
      country: 'India',
      gstin: '',
    });
    const text = await invoiceText(client, order.id);
    expect(text).toContain('Rajasthan (08)');
    expect(text).toContain('CGST @ 9% ₹114.33');
    expect(text).toContain('SGST @ 9% ₹114.33');
    expect(text).toContain('Taxable value ₹1,270.34');
    expect(text).toContain('Total (INR) ₹1,499.00');
    expect(text).toContain('Unregistered buyer (no GSTIN)');
    expect(text).not.toContain('IGST @');
    expect(addsUp(await storedInvoice(order.id))).toBe(order.amount);
  });

  it('charges IGST to a business in Maharashtra and prints its GSTIN', async () => {
    const { client } = await newBuyer(t);
    const order = await purchase(client, {
      currency: 'INR',
      address: 'Andheri East, Mumbai',
      state: 'Maharashtra',
      country: 'India',
      gstin: '27AAPFU0939F1ZV',
    });
    const text = await invoiceText(client, order.id);
    expect(text).toContain('Maharashtra (27)');
    expect(text).toContain('GSTIN: 27AAPFU0939F1ZV');
    expect(text).toContain('IGST @ 18% ₹228.66');
    expect(text).toContain('Total (INR) ₹1,499.00');
    expect(text).not.toContain('CGST @');
    expect(addsUp(await storedInvoice(order.id))).toBe(order.amount);
  });

  it('zero-rates a sale abroad under the LUT and states the rupees Razorpay settled', async () => {
    const { client } = await newBuyer(t);
    const order = await purchase(client, {
      currency: 'USD',
      address: '',
      state: '',
      country: 'Germany',
      gstin: '',
    });
    const text = await invoiceText(client, order.id);
    expect(text).toContain('Outside India (Germany) (96)');
    expect(text).toContain(EXPORT_ENDORSEMENT);
    expect(text).toContain(`LUT ARN: ${LUT_ARN}`);
    expect(text).toContain('IGST @ 0% $0.00');
    expect(text).toContain('Total (USD) $19.99');
    expect(text).toContain('Value in INR settled by Razorpay ₹1,679.16');
    expect(addsUp(await storedInvoice(order.id))).toBe(order.amount);
  });

  it('attaches the invoice to the purchase email, received over real SMTP', async () => {
    const { user, client } = await newBuyer(t);
    const order = await purchase(client, {
      currency: 'INR',
      address: 'MI Road',
      state: 'Rajasthan',
      country: 'India',
      gstin: '',
    });
    await deliverDueMail(t.ctx);
    const mail = await smtp.waitFor((received) => received.to.includes(user.email));
    const invoice = await storedInvoice(order.id);
    const attachment = mail.attachments.find((file) => file.mimeType === 'application/pdf');
    expect(attachment?.filename).toBe(`Invoice-${invoice.number.replaceAll('/', '-')}.pdf`);
    expect(flat(await pdfText(Buffer.from(attachment?.content ?? [])))).toContain(
      `Invoice no. ${invoice.number}`,
    );
    // The attachment and a later download are the same document, byte for byte.
    const download = await client.get((await ownOrders(client))[0]?.invoiceUrl ?? '');
    expect(Buffer.from(attachment?.content ?? []).equals(download.rawPayload)).toBe(true);
  });

  it('answers an invoice URL only to its owner', async () => {
    const owner = await newBuyer(t);
    const order = await purchase(owner.client, {
      currency: 'INR',
      address: 'MI Road',
      state: 'Rajasthan',
      country: 'India',
      gstin: '',
    });
    const url = (await ownOrders(owner.client))[0]?.invoiceUrl ?? '';
    expect(url).toBe(`/api/orders/${order.id}/invoice.pdf`);
    const stranger = await newBuyer(t);
    expect((await stranger.client.get(url)).statusCode).toBe(404);
    expect(await ownOrders(stranger.client)).toEqual([]);
    expect((await (await t.client()).get(url)).statusCode).toBe(401);
    expect((await owner.client.get(`/api/orders/${order.id}/credit-note.pdf`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/orders/not-a-uuid/invoice.pdf')).statusCode).toBe(404);
    const first = await owner.client.get(url);
    const second = await owner.client.get(url);
    expect(first.rawPayload.equals(second.rawPayload)).toBe(true);
  });
});

describe('a credit note for every refund', () => {
  it('refers to the invoice, comes with the refund notice and shows on My Tools', async () => {
    const { user, client } = await newBuyer(t);
    const billing = {
      currency: 'INR',
      address: 'Andheri',
      state: 'Maharashtra',
      country: 'India',
      gstin: '27AAPFU0939F1ZV',
    };
    const order = await purchase(client, billing);
    const invoice = await storedInvoice(order.id);
    await refundOrder(t.ctx, { orderId: order.id, source: 'admin', reason: 'Bought the wrong edition' });
    await deliverDueMail(t.ctx);
    const notice = await smtp.waitFor(
      (received) =>
        received.to.includes(user.email) &&
        received.attachments.some((file) => file.filename?.startsWith('Credit-note')),
    );
    expect(notice.text).toContain(`for invoice ${invoice.number} (attached)`);

    const [summary] = await ownOrders(client);
    expect(summary).toMatchObject({
      id: order.id,
      status: 'refunded',
      invoiceNumber: invoice.number,
      creditNoteNumber: expect.stringMatching(/^PCAC\/26-27\/\d{5}$/),
      creditNoteUrl: `/api/orders/${order.id}/credit-note.pdf`,
    });
    const download = await client.get(summary?.creditNoteUrl ?? '');
    expect(download.statusCode).toBe(200);
    const attached = notice.attachments.find((file) => file.mimeType === 'application/pdf');
    expect(attached?.content.equals(download.rawPayload)).toBe(true);
    const text = flat(await pdfText(download.rawPayload));
    expect(text).toContain(`Credit note no. ${summary?.creditNoteNumber}`);
    expect(text).toContain(`Against invoice ${invoice.number}`);
    expect(text).toContain('IGST @ 18% ₹228.66');
    expect(text).toContain('Total (INR) ₹1,499.00');
    expect(text).toContain('Reason: Bought the wrong edition');
    const stranger = await newBuyer(t);
    expect((await stranger.client.get(summary?.creditNoteUrl ?? '')).statusCode).toBe(404);
  });
});

describe('invoice numbers under real purchases', () => {
  const serialOf = (number: string) => Number(number.split('/')[2]);
  const rajasthan = { currency: 'INR', address: 'MI Road', state: 'Rajasthan', country: 'India', gstin: '' };

  it('gives 20 concurrent purchases 20 consecutive numbers, no duplicate and no gap', async () => {
    const buyers = await Promise.all(Array.from({ length: 20 }, () => newBuyer(t)));
    const paid = await Promise.all(buyers.map(({ client }) => purchase(client, rajasthan)));
    const numbers = await Promise.all(paid.map(async (order) => (await storedInvoice(order.id)).number));
    expect(new Set(numbers).size).toBe(20);
    const serials = numbers.map(serialOf).sort((a, b) => a - b);
    const first = serials[0] ?? 0;
    expect(serials).toEqual(Array.from({ length: 20 }, (_, index) => first + index));
  });

  it('starts the new financial year at 1 with the first purchase on or after 1 April, India time', async () => {
    const now = t.clock.now().getTime();
    // 31 March 2027, 23:59 in India, then 1 April 00:01.
    t.clock.advance(new Date('2027-03-31T18:29:00Z').getTime() - now);
    const { client } = await newBuyer(t);
    const march = await storedInvoice((await purchase(client, rajasthan)).id);
    expect(march.number).toMatch(/^PCA\/26-27\/\d{5}$/);
    expect(serialOf(march.number)).toBeGreaterThan(1);
    t.clock.advance(2 * 60 * 1000);
    const april = await newBuyer(t);
    const first = await storedInvoice((await purchase(april.client, rajasthan)).id);
    expect(first.number).toBe('PCA/27-28/00001');
    expect(first.date).toBe('2027-04-01');
  });
});
