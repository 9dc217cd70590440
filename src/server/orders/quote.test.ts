import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import {
  addPercentCoupon,
  catalogueRows,
  createOrder,
  emulatorCheckout,
  newBuyer,
  orderRow,
} from '../../../test/support/shop-fixtures';
import { BILLING_MESSAGES } from '../../shared/billing';
import type { CheckoutQuote } from '../../shared/checkout-quote';
import { QUOTE_MESSAGES } from '../../shared/checkout-quote';
import { COUPON_MESSAGES } from '../../shared/coupons';
import { gstinCheckCharacter } from '../../shared/gstin';
import { invoices } from '../db/schema/invoices';
import type { TaxDocument } from '../invoices/document';

const t = shopTestAppForFile();
let windowsId: string;

beforeAll(async () => {
  windowsId = (await catalogueRows(t)).windows.id;
  await addPercentCoupon(t, 'LAUNCH-20', 20, 'quote-tests');
});

const quote = (client: TestClient, body: Record<string, unknown>) =>
  client.post('/api/checkout/quote', { toolId: windowsId, currency: 'INR', state: 'Rajasthan', ...body });

const validGstin = (stateCode: string) => {
  const first14 = `${stateCode}ABCDE1234F1Z`;
  return first14 + gstinCheckCharacter(first14);
};

/** The same GSTIN with another check character. */
const wrongCheck = (gstin: string) => gstin.slice(0, 14) + (gstin.endsWith('A') ? 'B' : 'A');

describe('POST /api/checkout/quote', () => {
  it('gives the coupon, discount, GST split and total that create-payment charges and the invoice prints', async () => {
    const { client } = await newBuyer(t);
    const answer = await quote(client, { couponCode: 'launch-20' });
    expect(answer.statusCode, answer.body).toBe(200);
    const summary = answer.json<CheckoutQuote>();
    expect(summary).toEqual({
      listPrice: 149_900,
      discount: 29_980,
      taxableValue: 101_628,
      taxes: [
        { name: 'CGST', rate: 9, amount: 9_146 },
        { name: 'SGST', rate: 9, amount: 9_146 },
      ],
      total: 119_920,
      // No TDS deducted (issue 68): what is due is the total.
      tds: 0,
      amountDue: 119_920,
      currency: 'INR',
      coupon: { code: 'LAUNCH-20', applied: true, message: 'LAUNCH-20 applied' },
    });

    const created = await createOrder(client, windowsId, 'INR', { couponCode: 'LAUNCH-20' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json<{ amount: number }>().amount).toBe(summary.total);

    const razorpayOrderId = created.json<{ order_id: string }>().order_id;
    const paid = await emulatorCheckout(t, razorpayOrderId);
    expect((await client.post('/api/verify-payment/', await paid.json())).statusCode).toBe(200);
    const order = await orderRow(t, razorpayOrderId);
    const [invoice] = await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, order.id));
    const document = invoice?.document as TaxDocument;
    expect(document.total).toBe(summary.total);
    expect(document.taxableValue).toBe(summary.taxableValue);
    expect(document.taxes.map((line) => line.amount)).toEqual(summary.taxes.map((line) => line.amount));
    expect(document.discount?.amount).toBe(summary.discount);
  });

  it('splits IGST for another state and for an export, and answers a code that does not apply with its reason', async () => {
    const { client } = await newBuyer(t);
    const other = (await quote(client, { state: 'Maharashtra' })).json<CheckoutQuote>();
    expect(other.taxes).toEqual([{ name: 'IGST', rate: 18, amount: 22_866 }]);
    expect(other.total).toBe(149_900);

    const usd = await quote(client, { currency: 'USD', state: '', country: 'Canada' });
    expect(usd.statusCode, usd.body).toBe(200);
    expect(usd.json<CheckoutQuote>().taxes.map((line) => line.name)).toEqual(['IGST']);

    const refused = await quote(client, { couponCode: 'NO-SUCH-CODE' });
    expect(refused.statusCode).toBe(200);
    expect(refused.json<CheckoutQuote>()).toMatchObject({
      discount: 0,
      total: 149_900,
      coupon: { code: 'NO-SUCH-CODE', applied: false, message: COUPON_MESSAGES.invalid },
    });
  });

  it('prices 1 to 50 seats (the coupon on the whole order) and names every bad field', async () => {
    const { client } = await newBuyer(t);
    expect((await quote(client, { seats: 1 })).statusCode).toBe(200);
    const five = await quote(client, { seats: 5, couponCode: 'LAUNCH-20' });
    expect(five.statusCode, five.body).toBe(200);
    expect(five.json<CheckoutQuote>()).toMatchObject({
      listPrice: 5 * 149_900,
      discount: 5 * 29_980,
      total: 5 * 119_920,
    });
    expect((await quote(client, { seats: 50 })).statusCode).toBe(200);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ seats: 0 }, 'seats', QUOTE_MESSAGES.seats],
      [{ seats: 51 }, 'seats', QUOTE_MESSAGES.seats],
      [{ seats: 1.5 }, 'seats', QUOTE_MESSAGES.seats],
      [{ state: 'Atlantis' }, 'state', 'Please choose a state from the list'],
      [{ gstin: wrongCheck(validGstin('08')) }, 'gstin', BILLING_MESSAGES.gstinCheckCharacter],
      [{ gstin: validGstin('27') }, 'gstin', 'This GSTIN is registered in a different state'],
      [{ surprise: true }, 'surprise', ''],
    ];
    for (const [body, field, message] of cases) {
      const answer = await quote(client, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      const errors = answer.json<{ fieldErrors: Record<string, string> }>().fieldErrors;
      const key = Object.keys(errors).find((name) => name === field || name === '_');
      expect(key, JSON.stringify(errors)).toBeDefined();
      if (message) expect(errors[field]).toBe(message);
    }
    expect((await quote(client, { gstin: validGstin('08') })).statusCode).toBe(200);
  });

  it('is for signed-in buyers only', async () => {
    const anonymous = await t.client();
    expect((await quote(anonymous, {})).statusCode).toBe(401);
  });
});
