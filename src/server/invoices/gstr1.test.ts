import { describe, expect, it } from 'vitest';
import { testAppForFile } from '../../../test/support/file-apps';
import { addTool, createUser, insertPaidOrder } from '../../../test/support/shop-fixtures';
import { GSTR1_CSV_HEADERS, gstr1CsvRows, gstr1Report } from './gstr1';
import { issueCreditNote, issueInvoice } from './issue';

const t = testAppForFile({ now: new Date('2026-04-10T06:00:00Z') });

async function invoiceFor(
  billing: Partial<Record<'address' | 'state' | 'country' | 'gstin', string>>,
  amount: number,
  currency: 'INR' | 'USD' = 'INR',
) {
  const user = await createUser(t, { name: `Buyer ${billing.state || billing.country}` });
  const tool = await addTool(t);
  const orderId = await insertPaidOrder(t, { userId: user.id, toolId: tool.id, amount, currency, billing });
  const settledInr = currency === 'USD' ? amount * 84 : null;
  await t.ctx.db.transaction((tx) =>
    issueInvoice(t.ctx, tx, {
      orderId,
      itemDescription: 'Tool — license',
      razorpayPaymentId: 'pay_x',
      settledInr,
    }),
  );
  return orderId;
}

describe('GSTR-1 report', () => {
  it('splits B2B, B2C by state, exports and credit notes, in rupees', async () => {
    const india = (state: string, gstin = '') => ({ address: 'Somewhere', state, country: 'India', gstin });
    await invoiceFor(india('Rajasthan'), 1180_00);
    await invoiceFor(india('Rajasthan'), 118_00);
    await invoiceFor(india('Karnataka'), 118_00);
    const b2bOrder = await invoiceFor(india('Maharashtra', '27AAPFU0939F1ZV'), 499_00);
    await invoiceFor({ address: '', state: '', country: 'Canada', gstin: '' }, 10_00, 'USD');
    t.clock.advance(24 * 60 * 60 * 1000);
    await t.ctx.db.transaction((tx) =>
      issueCreditNote(t.ctx, tx, { orderId: b2bOrder, amount: 499_00, reason: null }),
    );
    // A document on the next day of the period's end is left out.
    t.clock.advance(30 * 24 * 60 * 60 * 1000);
    await invoiceFor(india('Rajasthan'), 118_00);

    const report = await gstr1Report(t.ctx, { from: '2026-04-01', to: '2026-04-30' });
    expect(report.b2b).toEqual([
      expect.objectContaining({
        buyerGstin: '27AAPFU0939F1ZV',
        placeOfSupply: '27-Maharashtra',
        taxableValue: 422_88,
        igst: 76_12,
        cgst: 0,
        total: 499_00,
      }),
    ]);
    expect(report.b2c).toEqual([
      {
        placeOfSupply: '08-Rajasthan',
        ratePercent: 18,
        documents: 2,
        taxableValue: 1100_00,
        igst: 0,
        cgst: 99_00,
        sgst: 99_00,
        total: 1298_00,
      },
      {
        placeOfSupply: '29-Karnataka',
        ratePercent: 18,
        documents: 1,
        taxableValue: 100_00,
        igst: 18_00,
        cgst: 0,
        sgst: 0,
        total: 118_00,
      },
    ]);
    // $10.00 settled at ₹84: the development identity has no LUT, so IGST is charged on the export.
    expect(report.exports).toEqual([
      expect.objectContaining({
        placeOfSupply: '96-Outside India (Canada)',
        currency: 'USD',
        total: 840_00,
        documentTotal: 10_00,
      }),
    ]);
    expect(report.exports[0]?.igst).toBe(Math.round((1_53 * 840_00) / 10_00));
    expect(report.creditNotes).toEqual([
      expect.objectContaining({
        originalNumber: report.b2b[0]?.number,
        buyerGstin: '27AAPFU0939F1ZV',
        igst: 76_12,
      }),
    ]);
    expect(report.unconverted).toEqual([]);

    const rows = gstr1CsvRows(report);
    expect(rows.map((row) => row[0])).toEqual(['b2b', 'b2c', 'b2c', 'exp', 'cdn']);
    const b2c = rows[1] ?? [];
    expect(b2c[GSTR1_CSV_HEADERS.indexOf('taxable_value_inr')]).toBe('1100.00');
    expect(b2c[GSTR1_CSV_HEADERS.indexOf('documents')]).toBe(2);
    for (const row of rows) expect(row).toHaveLength(GSTR1_CSV_HEADERS.length);
  });
});
