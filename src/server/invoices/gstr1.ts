import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, asc, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { creditNotes, invoices } from '../db/schema/invoices';
import type { AppContext } from '../kernel/context';
import { csv, csvLine } from '../kernel/csv';
import type { TaxDocument } from './document';
import type { SupplyType } from './tax';

/**
 * The invoices and credit notes of a period, split the way the accountant files them in GSTR-1: B2B invoices
 * (buyer GSTIN) one by one, B2C invoices summed per place of supply and rate, exports one by one, and credit
 * notes apart. Every figure is in rupees (paise); a USD document is converted at the rate Razorpay settled it.
 */

export type TaxFigures = { taxableValue: number; igst: number; cgst: number; sgst: number; total: number };

export type DocumentRow = TaxFigures & {
  number: string;
  date: string;
  buyerName: string;
  buyerGstin: string | null;
  placeOfSupply: string;
  supplyType: SupplyType;
  ratePercent: number;
  currency: TaxDocument['currency'];
  /** The document's own total in its currency (subunits), beside the rupee figures. */
  documentTotal: number;
  /** Set on credit notes. */
  originalNumber: string | null;
  originalDate: string | null;
};

export type B2cRow = TaxFigures & { placeOfSupply: string; ratePercent: number; documents: number };

export type Gstr1Report = {
  from: string;
  to: string;
  b2b: DocumentRow[];
  b2c: B2cRow[];
  exports: DocumentRow[];
  creditNotes: DocumentRow[];
  /** USD documents without a settled rupee value; their figures are left out of the rupee columns. */
  unconverted: string[];
};

const IST_MIDNIGHT = 'T00:00:00+05:30';

/** Rupee (paise) value of an amount on a document, or null when a USD document has no settled value. */
function inPaise(document: TaxDocument, amount: number): number | null {
  // A free order's invoice (a 100 % coupon) is worth nothing in any currency.
  if (document.currency === 'INR' || document.total === 0) return amount;
  if (document.settledInr === null || document.total === 0) return null;
  return Math.round((amount * document.settledInr) / document.total);
}

function figures(document: TaxDocument): TaxFigures | null {
  const tax = (name: string) => document.taxes.find((line) => line.name === name)?.amount ?? 0;
  const total = inPaise(document, document.total);
  if (total === null) return null;
  // Tax lines are converted one by one and the taxable value takes the remainder, so the row still adds up.
  const igst = inPaise(document, tax('IGST')) ?? 0;
  const cgst = inPaise(document, tax('CGST')) ?? 0;
  const sgst = inPaise(document, tax('SGST')) ?? 0;
  return { taxableValue: total - igst - cgst - sgst, igst, cgst, sgst, total };
}

const ratePercent = (document: TaxDocument) =>
  document.taxes.reduce((sum, line) => sum + line.ratePercent, 0);
const placeOfSupply = (document: TaxDocument) =>
  `${document.placeOfSupply.code}-${document.placeOfSupply.name}`;

function documentRow(document: TaxDocument, values: TaxFigures): DocumentRow {
  return {
    number: document.number,
    date: document.date,
    buyerName: document.buyer.name,
    buyerGstin: document.buyer.gstin,
    placeOfSupply: placeOfSupply(document),
    supplyType: document.supplyType,
    ratePercent: ratePercent(document),
    currency: document.currency,
    documentTotal: document.total,
    originalNumber: document.original?.number ?? null,
    originalDate: document.original?.date ?? null,
    ...values,
  };
}

/** Adds a B2C invoice to its state's and rate's row. */
function addB2c(b2c: Map<string, B2cRow>, document: TaxDocument, values: TaxFigures): void {
  const key = `${placeOfSupply(document)}|${ratePercent(document)}`;
  const row = b2c.get(key) ?? {
    placeOfSupply: placeOfSupply(document),
    ratePercent: ratePercent(document),
    documents: 0,
    taxableValue: 0,
    igst: 0,
    cgst: 0,
    sgst: 0,
    total: 0,
  };
  row.documents += 1;
  for (const field of ['taxableValue', 'igst', 'cgst', 'sgst', 'total'] as const) row[field] += values[field];
  b2c.set(key, row);
}

const b2cRows = (b2c: Map<string, B2cRow>) =>
  [...b2c.values()].sort((a, b) => a.placeOfSupply.localeCompare(b.placeOfSupply));

const isExport = (document: TaxDocument) => document.supplyType.startsWith('export');

/** The instants a period of India days covers: from its first midnight to the midnight after its last day. */
function periodRange(period: { from: string; to: string }): { start: Date; end: Date } {
  const start = new Date(`${period.from}${IST_MIDNIGHT}`);
  const end = new Date(new Date(`${period.to}${IST_MIDNIGHT}`).getTime() + 24 * 60 * 60 * 1000);
  return { start, end };
}

/** Builds the report of the documents dated from `from` to `to` (YYYY-MM-DD, India time, both included). */
export async function gstr1Report(
  ctx: Pick<AppContext, 'db'>,
  period: { from: string; to: string },
): Promise<Gstr1Report> {
  const { start, end } = periodRange(period);
  const [invoiceRows, noteRows] = await Promise.all([
    ctx.db
      .select({ document: invoices.document })
      .from(invoices)
      .where(and(gte(invoices.issuedAt, start), lt(invoices.issuedAt, end)))
      .orderBy(asc(invoices.issuedAt), asc(invoices.number)),
    ctx.db
      .select({ document: creditNotes.document })
      .from(creditNotes)
      .where(and(gte(creditNotes.issuedAt, start), lt(creditNotes.issuedAt, end)))
      .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.number)),
  ]);

  const report: Gstr1Report = { ...period, b2b: [], b2c: [], exports: [], creditNotes: [], unconverted: [] };
  const b2c = new Map<string, B2cRow>();
  for (const { document: stored } of invoiceRows) {
    const document = stored as TaxDocument;
    const values = figures(document);
    if (!values) {
      report.unconverted.push(document.number);
      continue;
    }
    if (isExport(document)) report.exports.push(documentRow(document, values));
    else if (document.buyer.gstin) report.b2b.push(documentRow(document, values));
    else addB2c(b2c, document, values);
  }
  report.b2c = b2cRows(b2c);
  for (const { document: stored } of noteRows) {
    const document = stored as TaxDocument;
    const values = figures(document);
    if (values) report.creditNotes.push(documentRow(document, values));
    else report.unconverted.push(document.number);
  }
  return report;
}

const rupees = (paise: number) => (paise / 100).toFixed(2);

export const GSTR1_CSV_HEADERS = [
  'section',
  'document_number',
  'document_date',
  'original_invoice_number',
  'original_invoice_date',
  'buyer_gstin',
  'buyer_name',
  'place_of_supply',
  'supply_type',
  'rate_percent',
  'documents',
  'taxable_value_inr',
  'igst_inr',
  'cgst_inr',
  'sgst_inr',
  'total_inr',
  'currency',
  'document_total',
];

const money = (row: TaxFigures) => [
  rupees(row.taxableValue),
  rupees(row.igst),
  rupees(row.cgst),
  rupees(row.sgst),
  rupees(row.total),
];

const documentLine = (section: string, row: DocumentRow) => [
  section,
  row.number,
  row.date,
  row.originalNumber,
  row.originalDate,
  row.buyerGstin,
  row.buyerName,
  row.placeOfSupply,
  row.supplyType,
  row.ratePercent,
  1,
  ...money(row),
  row.currency,
  rupees(row.documentTotal),
];

const b2cLine = (row: B2cRow) => [
  'b2c',
  null,
  null,
  null,
  null,
  null,
  null,
  row.placeOfSupply,
  null,
  row.ratePercent,
  row.documents,
  ...money(row),
  'INR',
  rupees(row.total),
];

/**
 * The report as CSV rows under GSTR1_CSV_HEADERS, one section after another: b2b, b2c (one row per state and
 * rate), exp (exports), cdn (credit notes; `buyer_gstin` tells registered from unregistered buyers).
 */
export function gstr1CsvRows(report: Gstr1Report): unknown[][] {
  return [
    ...report.b2b.map((row) => documentLine('b2b', row)),
    ...report.b2c.map(b2cLine),
    ...report.exports.map((row) => documentLine('exp', row)),
    ...report.creditNotes.map((row) => documentLine('cdn', row)),
  ];
}

/** The report as the accountant's CSV: the command line's `invoices export` and the dashboard's download. */
export const gstr1Csv = (report: Gstr1Report): string => csv(GSTR1_CSV_HEADERS, gstr1CsvRows(report));

/** Documents read per query while the CSV streams: a few MB of snapshots at a time, whatever the period holds. */
const STREAM_BATCH = 500;

type DocumentTable = typeof invoices | typeof creditNotes;

/**
 * The documents of a period in issue order, a batch at a time: keyset on (issued_at, number), which the
 * (issued_at, number) index answers, the cursor's issue time read from its row (exact to the microsecond).
 */
async function* documentsOf(
  ctx: Pick<AppContext, 'db'>,
  table: DocumentTable,
  period: { start: Date; end: Date },
  only?: SQL,
): AsyncGenerator<TaxDocument[]> {
  let last: string | undefined;
  for (;;) {
    const after =
      last === undefined
        ? undefined
        : sql`(${table.issuedAt}, ${table.number}) > ((select ${table.issuedAt} from ${table} where ${table.number} = ${last}), ${last})`;
    const rows = await ctx.db
      .select({ number: table.number, document: table.document })
      .from(table)
      .where(and(gte(table.issuedAt, period.start), lt(table.issuedAt, period.end), only, after))
      .orderBy(asc(table.issuedAt), asc(table.number))
      .limit(STREAM_BATCH);
    if (rows.length > 0) yield rows.map((row) => row.document as TaxDocument);
    if (rows.length < STREAM_BATCH) return;
    last = rows.at(-1)?.number;
    // A turn of the event loop between batches: what was yielded leaves on the socket and other requests are
    // answered. On PGlite the queries run on this thread and would otherwise follow each other without a break.
    await nextTurn();
  }
}

/**
 * The same CSV as `gstr1Csv(await gstr1Report(…))`, byte for byte, as chunks that leave while the documents are
 * still being read: b2b rows as their batch arrives (B2C ones summed on the way), the B2C sums, then the exports,
 * then the credit notes. The server holds one batch and the B2C sums, however long the period.
 */
export async function* gstr1CsvStream(
  ctx: Pick<AppContext, 'db'>,
  period: { from: string; to: string },
): AsyncGenerator<string> {
  const range = periodRange(period);
  yield csvLine(GSTR1_CSV_HEADERS);
  const b2c = new Map<string, B2cRow>();
  const domestic = inArray(invoices.supplyType, ['intra-state', 'inter-state']);
  for await (const batch of documentsOf(ctx, invoices, range, domestic)) {
    let chunk = '';
    for (const document of batch) {
      const values = figures(document);
      if (!values) continue;
      if (document.buyer.gstin) chunk += csvLine(documentLine('b2b', documentRow(document, values)));
      else addB2c(b2c, document, values);
    }
    if (chunk) yield chunk;
  }
  yield b2cRows(b2c)
    .map((row) => csvLine(b2cLine(row)))
    .join('');
  const exported = inArray(invoices.supplyType, ['export-lut', 'export-igst']);
  for (const [table, section, only] of [
    [invoices, 'exp', exported],
    [creditNotes, 'cdn', undefined],
  ] as const) {
    for await (const batch of documentsOf(ctx, table, range, only)) {
      let chunk = '';
      for (const document of batch) {
        const values = figures(document);
        if (values) chunk += csvLine(documentLine(section, documentRow(document, values)));
      }
      if (chunk) yield chunk;
    }
  }
}
