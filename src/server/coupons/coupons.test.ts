import { count, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { pdfText } from '../../../test/support/invoices-helpers';
import {
  addTool,
  createOrder,
  emulatorCheckout,
  newBuyer,
  orderRow,
} from '../../../test/support/shop-fixtures';
import { COUPON_MESSAGES, type NewCouponInput, newCouponSchema } from '../../shared/coupons';
import type { OrderHistoryOrder } from '../../shared/order-history';
import { couponRedemptions } from '../db/schema/coupons';
import { creditNotes, invoices } from '../db/schema/invoices';
import { licenses } from '../db/schema/licenses';
import { orders, purchases } from '../db/schema/orders';
import type { TaxDocument } from '../invoices/document';
import { gstr1Report } from '../invoices/gstr1';
import { cliActor } from '../operator/audit';
import { refundOrder } from '../orders/refund';
import { fulfilFreeOrder } from '../orders/settle';
import { couponDetail, createCoupon, disableCoupon } from './operator';

const t = shopTestAppForFile();
let toolId: string;
let otherToolId: string;
const operator = cliActor('coupon-tests');
const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

beforeAll(async () => {
  toolId = (await addTool(t, { name: 'GST Return Helper', priceInrPaise: 999_00, priceUsdCents: 14_99 })).id;
  otherToolId = (await addTool(t, { name: 'Ledger Cleaner', priceInrPaise: 499_00 })).id;
});
// The buyers of this file share one network address, whose coupon guesses share one budget a minute.
beforeEach(() => t.clock.advance(MINUTE + 1000));

const flat = (text: string) => text.replace(/\s+/g, ' ');
const addCoupon = (input: NewCouponInput) => createCoupon(t.ctx, operator, newCouponSchema.parse(input));
const isoDay = (offsetDays: number) => new Date(t.clock.now().getTime() + offsetDays * DAY).toISOString();

async function check(client: TestClient, code: string, tool = toolId, currency: 'INR' | 'USD' = 'INR') {
  return client.post('/api/coupons/check', { toolId: tool, currency, code });
}

/** Pays an order on the emulator over HTTP and reports it as the browser does (verify-payment). */
async function payAndVerify(client: TestClient, razorpayOrderId: string) {
  const paid = await emulatorCheckout(t, razorpayOrderId);
  expect(paid.status).toBe(200);
  const verified = await client.post('/api/verify-payment/', await paid.json());
  expect(verified.statusCode, verified.body).toBe(200);
  return orderRow(t, razorpayOrderId);
}

async function storedInvoice(orderId: string): Promise<TaxDocument> {
  const [row] = await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, orderId));
  if (!row) throw new Error(`no invoice for order ${orderId}`);
  return row.document as TaxDocument;
}

async function invoicePdfText(client: TestClient, orderId: string): Promise<string> {
  const list = await client.get('/api/orders/');
  const summary = list.json<OrderHistoryOrder[]>().find((order) => order.id === orderId);
  const response = await client.get(summary?.invoiceUrl ?? '');
  expect(response.statusCode).toBe(200);
  return flat(await pdfText(response.rawPayload));
}

async function rowCounts() {
  const [orderCount] = await t.ctx.db.select({ n: count() }).from(orders);
  const [useCount] = await t.ctx.db.select({ n: count() }).from(couponRedemptions);
  return { orders: orderCount?.n, uses: useCount?.n };
}

/** "₹1,234.56" → 123456 paise. */
const paise = (text: string) => Math.round(Number(text.replace(/[₹$,-]/g, '')) * 100);

describe('POST /api/coupons/check', () => {
  it('prices the tool with a code typed in any case, in the currency units the catalogue shows', async () => {
    await addCoupon({ code: 'DIWALI-20', percent: 20 });
    const { client } = await newBuyer(t);
    const inr = await check(client, ' diwali-20 ');
    expect(inr.statusCode, inr.body).toBe(200);
    expect(inr.json()).toEqual({ code: 'DIWALI-20', price: 799.2, discount: 199.8, currency: 'INR' });
    const usd = await check(client, 'Diwali-20', toolId, 'USD');
    expect(usd.json()).toEqual({ code: 'DIWALI-20', price: 11.99, discount: 3, currency: 'USD' });
  });

  it('gives each refused code its reason and changes nothing, at check and at create-payment', async () => {
    await addCoupon({ code: 'OLD-SALE', percent: 10, endsAt: isoDay(-1) });
    await addCoupon({ code: 'LATER', percent: 10, startsAt: isoDay(3) });
    await addCoupon({ code: 'LEDGER-ONLY', percent: 10, toolIds: [otherToolId] });
    await addCoupon({ code: 'STOPPED', percent: 10 });
    await disableCoupon(t.ctx, operator, 'stopped');
    await addCoupon({ code: 'ONE-LEFT', percent: 10, maxUses: 1, reusable: true });
    const first = await newBuyer(t);
    expect((await createOrder(first.client, toolId, 'INR', { couponCode: 'one-left' })).statusCode).toBe(200);

    const { client } = await newBuyer(t);
    const before = await rowCounts();
    const cases: Array<[string, string]> = [
      ['OLD-SALE', COUPON_MESSAGES.expired],
      ['LEDGER-ONLY', COUPON_MESSAGES.wrongTool],
      ['ONE-LEFT', COUPON_MESSAGES.usedUp],
      ['NO-SUCH-CODE', COUPON_MESSAGES.invalid],
      ['STOPPED', COUPON_MESSAGES.invalid],
      ['LATER', COUPON_MESSAGES.invalid],
      ['not a code!', COUPON_MESSAGES.invalid],
    ];
    for (const [code, message] of cases) {
      // Each code is tried twice, from one account whose guesses share one budget of 10 a minute.
      t.clock.advance(30_000);
      const checked = await check(client, code);
      expect(checked.statusCode, code).toBe(400);
      expect(checked.json<{ message: string }>().message, code).toBe(message);
      const ordered = await createOrder(client, toolId, 'INR', { couponCode: code });
      expect(ordered.statusCode, code).toBe(400);
      expect(ordered.json<{ message: string }>().message, code).toBe(message);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('tells a buyer who used a one-per-buyer code so, and lets them retry their own open checkout', async () => {
    await addCoupon({ code: 'WELCOME', percent: 15 });
    const { client } = await newBuyer(t);
    const first = await createOrder(client, toolId, 'INR', { couponCode: 'WELCOME' });
    expect(first.statusCode).toBe(200);
    // The checkout was closed: the same buyer, same tool, tries again and takes the reservation over.
    expect((await check(client, 'welcome')).statusCode).toBe(200);
    const retried = await createOrder(client, toolId, 'INR', { couponCode: 'WELCOME' });
    expect(retried.statusCode, retried.body).toBe(200);
    await payAndVerify(client, retried.json<{ order_id: string }>().order_id);
    const again = await check(client, 'WELCOME', otherToolId);
    expect(again.json<{ message: string }>().message).toBe(COUPON_MESSAGES.alreadyUsed);
    const detail = await couponDetail(t.ctx, 'welcome');
    expect(detail.used).toBe(1);
    expect(detail.uses.map((use) => use.state).sort()).toEqual(['released', 'used']);
  });

  it('allows each account 10 tries a minute (429 after)', async () => {
    const { client } = await newBuyer(t);
    for (let i = 0; i < 10; i++) expect((await check(client, `GUESS-${i}`)).statusCode).toBe(400);
    const limited = await check(client, 'GUESS-10');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeTruthy();
  });

  it('counts guesses at the check and at create-payment in one budget: 10 spread over both, then 429 at either', async () => {
    const { client } = await newBuyer(t);
    for (let i = 0; i < 5; i++) {
      expect((await check(client, `SPREAD-${i}`)).statusCode).toBe(400);
      const order = await createOrder(client, toolId, 'INR', { couponCode: `SPREAD-PAY-${i}` });
      expect(order.statusCode, order.body).toBe(400);
    }
    const before = await rowCounts();
    expect((await check(client, 'SPREAD-10')).statusCode).toBe(429);
    const paying = await createOrder(client, toolId, 'INR', { couponCode: 'SPREAD-11' });
    expect(paying.statusCode).toBe(429);
    expect(paying.json().message).toBe(COUPON_MESSAGES.tooMany);
    expect(await rowCounts()).toEqual(before);
    // An order without a code is not a guess.
    expect((await createOrder(client, toolId, 'INR')).statusCode).toBe(200);
  });
});

describe('a coupon with 5 uses left', () => {
  it('gives exactly 5 of 20 racing buyers the discount; the other 15 are refused and nothing is held for them', async () => {
    await addCoupon({ code: 'FIRST-FIVE', percent: 50, maxUses: 5 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => newBuyer(t)));
    const answers = await Promise.all(
      buyers.map(({ client }) => createOrder(client, toolId, 'INR', { couponCode: 'first-five' })),
    );
    const accepted = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(accepted).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const answer of refused)
      expect(answer.json<{ message: string }>().message).toBe(COUPON_MESSAGES.usedUp);
    for (const answer of accepted) expect(answer.json<{ amount: number }>().amount).toBe(499_50);

    const paid = await Promise.all(
      answers.flatMap((answer, index) => {
        const client = buyers[index]?.client;
        return answer.statusCode === 200 && client
          ? [payAndVerify(client, answer.json<{ order_id: string }>().order_id)]
          : [];
      }),
    );
    expect(paid.map((order) => [order.status, order.amount, order.discount, order.couponCode])).toEqual(
      Array(5).fill(['paid', 499_50, 499_50, 'FIRST-FIVE']),
    );
    const detail = await couponDetail(t.ctx, 'FIRST-FIVE');
    expect([detail.used, detail.reserved, detail.state]).toEqual([5, 0, 'used-up']);
    expect(detail.revenue).toEqual([{ currency: 'INR', orders: 5, paid: 5 * 499_50, discount: 5 * 499_50 }]);
    const late = await newBuyer(t);
    expect((await check(late.client, 'FIRST-FIVE')).json<{ message: string }>().message).toBe(
      COUPON_MESSAGES.usedUp,
    );
  });

  it('gives the use back when the order cannot be paid, and when its hold of 30 minutes ends', async () => {
    await addCoupon({ code: 'HELD', percent: 10, maxUses: 1, reusable: true });
    const first = await newBuyer(t);
    expect((await createOrder(first.client, toolId, 'INR', { couponCode: 'HELD' })).statusCode).toBe(200);
    const second = await newBuyer(t);
    expect((await check(second.client, 'HELD')).statusCode).toBe(400);
    t.clock.advance(29 * MINUTE);
    expect((await check(second.client, 'HELD')).statusCode).toBe(400);
    t.clock.advance(2 * MINUTE);
    expect((await check(second.client, 'HELD')).statusCode).toBe(200);
  });
});

describe('the tax documents of a discounted order', () => {
  it('show list price, discount, taxable value and GST on it, adding up to the paisa', async () => {
    await addCoupon({ code: 'TAX-TEST', percent: 20 });
    const { client } = await newBuyer(t);
    const created = await createOrder(client, toolId, 'INR', { couponCode: 'TAX-TEST' });
    const order = await payAndVerify(client, created.json<{ order_id: string }>().order_id);
    expect([order.listPrice, order.discount, order.amount]).toEqual([999_00, 199_80, 799_20]);

    const document = await storedInvoice(order.id);
    const discount = document.discount;
    if (!discount) throw new Error('the invoice has no discount');
    expect(discount).toMatchObject({ code: 'TAX-TEST', listPrice: 999_00, amount: 199_80 });
    expect(discount.listPrice - discount.amount).toBe(document.total);
    expect(discount.listTaxableValue - discount.taxableDiscount).toBe(document.taxableValue);
    const taxes = document.taxes.reduce((sum, tax) => sum + tax.amount, 0);
    expect(document.taxableValue + taxes).toBe(799_20);
    expect(document.taxableValue).toBe(677_28); // 799.20 less CGST and SGST of 9 % each (60.96), the odd paisa here
    expect(document.taxes.map((tax) => [tax.name, tax.amount])).toEqual([
      ['CGST', 60_96],
      ['SGST', 60_96],
    ]);

    const text = await invoicePdfText(client, order.id);
    const value = (label: string) => {
      const match = text.match(new RegExp(`${label} (-?₹[\\d,]+\\.\\d\\d)`));
      if (!match?.[1]) throw new Error(`no "${label}" in: ${text}`);
      return paise(match[1]);
    };
    const before = value('Value before discount');
    const less = value('Less discount \\(coupon TAX-TEST\\)');
    const taxable = value('Taxable value');
    const cgst = value('CGST @ 9%');
    const sgst = value('SGST @ 9%');
    const total = value('Total \\(INR\\)');
    expect(before - less).toBe(taxable);
    expect(taxable + cgst + sgst).toBe(total);
    expect(total).toBe(799_20);
    expect(text).toContain(
      'List price ₹999.00 (incl. GST) less coupon TAX-TEST ₹199.80 (incl. GST) = ₹799.20',
    );

    // GSTR-1: the B2C row of Rajasthan carries the value after the discount.
    const day = document.date;
    const report = await gstr1Report(t.ctx, { from: day, to: day });
    const rows = report.b2c.filter((row) => row.placeOfSupply === '08-Rajasthan');
    const totals = rows.reduce(
      (sum, row) => ({ taxable: sum.taxable + row.taxableValue, total: sum.total + row.total }),
      { taxable: 0, total: 0 },
    );
    const allInvoices = await t.ctx.db.select({ document: invoices.document }).from(invoices);
    const expected = allInvoices
      .map((row) => row.document as TaxDocument)
      .filter((doc) => doc.date === day && doc.placeOfSupply.code === '08' && !doc.buyer.gstin);
    expect(totals.total).toBe(expected.reduce((sum, doc) => sum + doc.total, 0));
    expect(totals.taxable).toBe(expected.reduce((sum, doc) => sum + doc.taxableValue, 0));

    // Refunded: the credit note reverses the discounted value, not the list price.
    await refundOrder(t.ctx, { orderId: order.id, source: 'admin', reason: 'Changed their mind' });
    const [note] = await t.ctx.db.select().from(creditNotes).where(eq(creditNotes.orderId, order.id));
    const noteDocument = note?.document as TaxDocument;
    expect([noteDocument.total, noteDocument.taxableValue]).toEqual([799_20, 677_28]);
    expect(noteDocument.discount?.amount).toBe(199_80);
    const after = await gstr1Report(t.ctx, { from: day, to: day });
    const cdn = after.creditNotes.find((row) => row.number === note?.number);
    expect(cdn).toMatchObject({ taxableValue: 677_28, cgst: 60_96, sgst: 60_96, total: 799_20 });
    const noteText = flat(
      await pdfText((await client.get(`/api/orders/${order.id}/credit-note.pdf`)).rawPayload),
    );
    expect(noteText).toContain('Less discount (coupon TAX-TEST) -₹');
    expect(noteText).toContain('Taxable value ₹677.28');
  });

  it('raises a discounted price below ₹1 to ₹1', async () => {
    await addCoupon({ code: 'HUGE', amountInr: 5000 });
    const { client } = await newBuyer(t);
    expect((await check(client, 'HUGE')).json()).toEqual({
      code: 'HUGE',
      price: 1,
      discount: 998,
      currency: 'INR',
    });
    const created = await createOrder(client, toolId, 'INR', { couponCode: 'HUGE' });
    expect(created.json<{ amount: number }>().amount).toBe(100);
  });
});

describe('a 100 % coupon', () => {
  it('gives the tool without a payment: no Razorpay order, one license and one zero-value invoice', async () => {
    await addCoupon({ code: 'ON-THE-HOUSE', percent: 100, reusable: true });
    const { client, user } = await newBuyer(t);
    const razorpayOrders = t.emulator?.orders.size;
    const created = await createOrder(client, toolId, 'INR', { couponCode: 'on-the-house' });
    expect(created.statusCode, created.body).toBe(200);
    const answer = created.json<{ free?: boolean; amount: number; order_id: string; message: string }>();
    expect(answer).toMatchObject({ free: true, amount: 0 });
    expect(answer.message).toBe('Payment successful! Details have been sent to you on Email.');
    expect(t.emulator?.orders.size).toBe(razorpayOrders);

    // Ten confirmations at once (the reconciler, a retried request): still one of everything.
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => fulfilFreeOrder(t.ctx, answer.order_id)),
    );
    expect(outcomes.every((outcome) => outcome.result === 'already-paid')).toBe(true);
    const order = await orderRow(t, answer.order_id);
    expect([order.status, order.amount, order.razorpayPaymentId]).toEqual(['paid', 0, null]);
    const [purchaseCount] = await t.ctx.db
      .select({ n: count() })
      .from(purchases)
      .where(eq(purchases.orderId, order.id));
    const [licenseCount] = await t.ctx.db
      .select({ n: count() })
      .from(licenses)
      .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
      .where(eq(purchases.userId, user.id));
    const invoiceRows = await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, order.id));
    expect([purchaseCount?.n, licenseCount?.n, invoiceRows.length]).toEqual([1, 1, 1]);
    const document = invoiceRows[0]?.document as TaxDocument;
    expect([document.total, document.taxableValue, document.discount?.amount]).toEqual([0, 0, 999_00]);
    const text = await invoicePdfText(client, order.id);
    expect(text).toContain('Total (INR) ₹0.00');

    // Ten concurrent free orders of one buyer for one tool: one purchase, the rest refused as already owned.
    const other = await newBuyer(t);
    const racing = await Promise.all(
      Array.from({ length: 10 }, () =>
        createOrder(other.client, otherToolId, 'INR', { couponCode: 'ON-THE-HOUSE' }),
      ),
    );
    expect(racing.filter((response) => response.statusCode === 200)).toHaveLength(1);
    const [owned] = await t.ctx.db
      .select({ n: count() })
      .from(purchases)
      .where(eq(purchases.userId, other.user.id));
    const [otherInvoices] = await t.ctx.db
      .select({ n: count() })
      .from(invoices)
      .where(eq(invoices.userId, other.user.id));
    expect([owned?.n, otherInvoices?.n]).toEqual([1, 1]);
  });
});
