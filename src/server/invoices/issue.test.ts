import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testAppForFile } from '../../../test/support/file-apps';
import { addTool, createUser, insertPaidOrder } from '../../../test/support/shop-fixtures';
import { creditNotes, invoices } from '../db/schema/invoices';
import type { TaxDocument } from './document';
import { issueCreditNote, issueInvoice } from './issue';

const t = testAppForFile({ now: new Date('2026-06-01T10:00:00Z') });

/** The line an order's kind would print (orders/kinds/); issuing the invoice takes it as given. */
const LINE = 'GST Return Helper (Windows) — license for up to 3 devices, delivered electronically';

async function paidOrder(input: {
  billing: Partial<Record<'address' | 'state' | 'country' | 'gstin', string>>;
  currency?: 'INR' | 'USD';
  amount?: number;
}): Promise<string> {
  const user = await createUser(t, { name: 'Ravi Traders' });
  const tool = await addTool(t, { name: 'GST Return Helper', device: 'Windows' });
  return insertPaidOrder(t, {
    userId: user.id,
    toolId: tool.id,
    amount: input.amount ?? 499_00,
    currency: input.currency,
    billing: input.billing,
  });
}

const maharashtra = {
  address: 'Andheri East, Mumbai',
  state: 'Maharashtra',
  country: 'India',
  gstin: '27AAPFU0939F1ZV',
};

describe('issueInvoice', () => {
  it('writes a numbered snapshot of the firm, the buyer and the tax split', async () => {
    const orderId = await paidOrder({ billing: maharashtra });
    const issued = await t.ctx.db.transaction((tx) =>
      issueInvoice(t.ctx, tx, { orderId, itemDescription: LINE, razorpayPaymentId: 'pay_1' }),
    );
    expect(issued.number).toMatch(/^PCA\/26-27\/\d{5}$/);
    const [row] = await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(row).toMatchObject({
      number: issued.number,
      supplyType: 'inter-state',
      buyerGstin: '27AAPFU0939F1ZV',
    });
    const document = row?.document as TaxDocument;
    expect(document).toMatchObject({
      specimen: true,
      supplier: { stateCode: '08', legalName: 'Pinkcity Advisors LLP' },
      buyer: { name: 'Ravi Traders', stateCode: '27', gstin: '27AAPFU0939F1ZV' },
      placeOfSupply: { name: 'Maharashtra', code: '27' },
      item: { description: expect.stringContaining('GST Return Helper (Windows)'), sac: '997331' },
      taxableValue: 422_88,
      taxes: [{ name: 'IGST', ratePercent: 18, amount: 76_12 }],
      total: 499_00,
      date: '2026-06-01',
    });
  });

  it('returns the same invoice when asked twice for one order', async () => {
    const orderId = await paidOrder({
      billing: { address: 'MI Road', state: 'Rajasthan', country: 'India' },
    });
    const first = await t.ctx.db.transaction((tx) =>
      issueInvoice(t.ctx, tx, { orderId, itemDescription: LINE, razorpayPaymentId: 'p' }),
    );
    const second = await t.ctx.db.transaction((tx) =>
      issueInvoice(t.ctx, tx, { orderId, itemDescription: LINE, razorpayPaymentId: 'p' }),
    );
    expect(second.number).toBe(first.number);
    expect(await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, orderId))).toHaveLength(1);
  });

  it('records the INR value Razorpay settled for a USD export', async () => {
    const orderId = await paidOrder({
      billing: { address: '', state: '', country: 'Canada', gstin: '' },
      currency: 'USD',
      amount: 19_99,
    });
    const issued = await t.ctx.db.transaction((tx) =>
      issueInvoice(t.ctx, tx, {
        orderId,
        itemDescription: LINE,
        razorpayPaymentId: 'p',
        settledInr: 1679_16,
      }),
    );
    // The development identity has no LUT, so the export is charged IGST.
    expect(issued.document).toMatchObject({
      supplyType: 'export-igst',
      settledInr: 1679_16,
      currency: 'USD',
    });
    expect(issued.document.placeOfSupply).toEqual({ name: 'Outside India (Canada)', code: '96' });
  });
});

describe('issueCreditNote', () => {
  it('corrects the invoice with its own series, refers to it and keeps its tax split', async () => {
    const orderId = await paidOrder({ billing: maharashtra });
    const invoice = await t.ctx.db.transaction((tx) =>
      issueInvoice(t.ctx, tx, { orderId, itemDescription: LINE, razorpayPaymentId: 'p' }),
    );
    t.clock.advance(3 * 24 * 60 * 60 * 1000);
    const note = await t.ctx.db.transaction((tx) =>
      issueCreditNote(t.ctx, tx, { orderId, amount: 499_00, reason: 'Wrong edition' }),
    );
    expect(note?.number).toMatch(/^PCAC\/26-27\/\d{5}$/);
    expect(note?.document).toMatchObject({
      kind: 'credit-note',
      original: { number: invoice.number, date: invoice.document.date },
      taxes: invoice.document.taxes,
      total: 499_00,
      reason: 'Wrong edition',
    });
    expect(note?.document.date).not.toBe(invoice.document.date);
    const again = await t.ctx.db.transaction((tx) =>
      issueCreditNote(t.ctx, tx, { orderId, amount: 499_00, reason: null }),
    );
    expect(again?.number).toBe(note?.number);
    expect(await t.ctx.db.select().from(creditNotes).where(eq(creditNotes.orderId, orderId))).toHaveLength(1);
  });

  it('issues nothing for an order that has no invoice', async () => {
    const orderId = await paidOrder({ billing: maharashtra });
    const note = await t.ctx.db.transaction((tx) =>
      issueCreditNote(t.ctx, tx, { orderId, amount: 1, reason: null }),
    );
    expect(note).toBeNull();
  });
});
