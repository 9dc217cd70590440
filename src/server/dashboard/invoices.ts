import type { InvoiceReport } from '../../shared/dashboard';
import { type DocumentRow, gstr1Report } from '../invoices/gstr1';
import type { AppContext } from '../kernel/context';

/** The Invoices screen: the command line's `invoices list` report of a period, for a table. */
export async function invoiceReport(
  ctx: AppContext,
  period: { from: string; to: string },
): Promise<InvoiceReport> {
  const report = await gstr1Report(ctx, period);
  const document = (section: 'b2b' | 'exp' | 'cdn') => (row: DocumentRow) => ({
    section,
    number: row.number,
    date: row.date,
    buyerName: row.buyerName,
    buyerGstin: row.buyerGstin,
    placeOfSupply: row.placeOfSupply,
    originalNumber: row.originalNumber,
    taxableValue: row.taxableValue,
    igst: row.igst,
    cgst: row.cgst,
    sgst: row.sgst,
    total: row.total,
  });
  return {
    from: report.from,
    to: report.to,
    documents: [
      ...report.b2b.map(document('b2b')),
      ...report.exports.map(document('exp')),
      ...report.creditNotes.map(document('cdn')),
    ],
    b2c: report.b2c,
    unconverted: report.unconverted,
  };
}
