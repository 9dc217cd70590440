import { and, asc, eq, gt, gte, inArray, isNull, lt } from 'drizzle-orm';
import { formatSubunits } from '../../../shared/money';
import { QUARTER_MESSAGE, quarterDays, type TdsReport } from '../../../shared/tds-report';
import { users } from '../../db/schema/accounts';
import { invoices } from '../../db/schema/invoices';
import { orders, tdsCertificates } from '../../db/schema/orders';
import type { TaxDocument } from '../../invoices/document';
import { indiaDate } from '../../invoices/numbering';
import type { AppContext } from '../../kernel/context';
import { csv } from '../../kernel/csv';
import { DomainError } from '../../kernel/domain-error';

const istMidnight = (day: string) => new Date(`${day}T00:00:00+05:30`);

/**
 * TDS receivable for a quarter of the financial year (issue 68), for the accountant to match against Form 26AS:
 * every order settled in it whose buyer deducted TDS, with the buyer, its PAN, the current invoice (its taxable
 * value, which TDS is 10 % of) and whether the Form 16A has come and been checked. Refunded orders stay listed with
 * their status: the buyer reverses its TDS, the accountant sees why.
 */
export async function tdsReport(ctx: Pick<AppContext, 'db'>, quarter: string): Promise<TdsReport> {
  const days = quarterDays(quarter);
  if (!days) throw new DomainError('invalid', QUARTER_MESSAGE);
  const next = new Date(istMidnight(days.to).getTime() + 24 * 60 * 60 * 1000);
  const rows = await ctx.db
    .select({
      order: orders,
      name: users.name,
      email: users.email,
      invoiceNumber: invoices.number,
      invoiceIssuedAt: invoices.issuedAt,
      invoiceDocument: invoices.document,
      certificateUploadedAt: tdsCertificates.uploadedAt,
      certificateCheckedAt: tdsCertificates.checkedAt,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(invoices, and(eq(invoices.orderId, orders.id), isNull(invoices.cancelledByCreditNoteId)))
    .leftJoin(tdsCertificates, eq(tdsCertificates.orderId, orders.id))
    .where(
      and(
        gt(orders.tdsAmount, 0),
        inArray(orders.status, ['paid', 'refunded']),
        gte(orders.paidAt, istMidnight(days.from)),
        lt(orders.paidAt, next),
      ),
    )
    .orderBy(asc(orders.paidAt), asc(orders.id));
  const report: TdsReport = {
    quarter: quarter.trim().toUpperCase(),
    ...days,
    rows: rows.map((row) => ({
      orderId: row.order.id,
      settledOn: indiaDate(row.order.paidAt ?? row.order.createdAt),
      buyerName: row.name,
      buyerEmail: row.email,
      pan: row.order.buyerPan ?? '',
      invoiceNumber: row.invoiceNumber,
      invoiceDate: row.invoiceIssuedAt ? indiaDate(row.invoiceIssuedAt) : null,
      taxableValue: (row.invoiceDocument as TaxDocument | null)?.taxableValue ?? 0,
      tdsAmount: row.order.tdsAmount,
      certificate: row.certificateCheckedAt ? 'checked' : row.certificateUploadedAt ? 'received' : 'missing',
      certificateReceivedOn: row.certificateUploadedAt ? indiaDate(row.certificateUploadedAt) : null,
      orderStatus: row.order.status,
    })),
    totals: { taxableValue: 0, tdsAmount: 0, received: 0, missing: 0 },
  };
  for (const row of report.rows) {
    report.totals.taxableValue += row.taxableValue;
    report.totals.tdsAmount += row.tdsAmount;
    if (row.certificate === 'missing') report.totals.missing++;
    else report.totals.received++;
  }
  return report;
}

const rupees = (paise: number) => (paise / 100).toFixed(2);

/** The report as CSV for the accountant: rupees with two decimals, one row per order, formula-safe. */
export function tdsReportCsv(report: TdsReport): string {
  return csv(
    [
      'quarter',
      'order',
      'settled_on',
      'buyer',
      'buyer_email',
      'pan',
      'invoice',
      'invoice_date',
      'taxable_value',
      'tds_amount',
      'form_16a',
      'form_16a_received_on',
      'order_status',
    ],
    report.rows.map((row) => [
      report.quarter,
      row.orderId,
      row.settledOn,
      row.buyerName,
      row.buyerEmail,
      row.pan,
      row.invoiceNumber ?? '',
      row.invoiceDate ?? '',
      rupees(row.taxableValue),
      rupees(row.tdsAmount),
      row.certificate,
      row.certificateReceivedOn ?? '',
      row.orderStatus,
    ]),
  );
}

/** One line of totals under the report's table, for people. */
export const tdsTotalsLine = (report: TdsReport) =>
  `${report.rows.length} order(s): taxable value ${formatSubunits(report.totals.taxableValue, 'INR')}, TDS receivable ${formatSubunits(report.totals.tdsAmount, 'INR')}; Form 16A received for ${report.totals.received}, missing for ${report.totals.missing}.`;
