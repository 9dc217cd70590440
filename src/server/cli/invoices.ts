import { invoicePeriodSchema } from '../../shared/dashboard';
import { formatSubunits } from '../../shared/money';
import { type Gstr1Report, gstr1Csv, gstr1Report } from '../invoices/gstr1';
import { sections, table } from './format';
import { CommandError, defineCommand, parseCommandInput } from './framework';

const PERIOD = {
  from: { type: 'string', value: '<YYYY-MM-DD>', description: 'First day, India time (required)' },
  to: { type: 'string', value: '<YYYY-MM-DD>', description: 'Last day, India time, included (required)' },
} as const;

/**
 * `--from` / `--to`: the period as the dashboard's invoices page parses it (the same schema), before the database is
 * opened.
 */
const parsePeriod = (options: { from?: string; to?: string }): { from: string; to: string } =>
  parseCommandInput(invoicePeriodSchema, {
    options: { from: options.from?.trim(), to: options.to?.trim() },
  });

const inr = (paise: number) => formatSubunits(paise, 'INR');

function reportText(report: Gstr1Report): string {
  const documentColumns = [
    'NUMBER',
    'DATE',
    'BUYER',
    'GSTIN',
    'PLACE OF SUPPLY',
    'TAXABLE',
    'IGST',
    'CGST',
    'SGST',
    'TOTAL',
  ];
  const documentRows = (rows: Gstr1Report['b2b']) =>
    rows.map((row) => [
      row.originalNumber ? `${row.number} (for ${row.originalNumber})` : row.number,
      row.date,
      row.buyerName,
      row.buyerGstin ?? '',
      row.placeOfSupply,
      inr(row.taxableValue),
      inr(row.igst),
      inr(row.cgst),
      inr(row.sgst),
      inr(row.total),
    ]);
  const parts: Array<[string | null, string]> = [
    [
      `B2B invoices (buyer GSTIN), ${report.from} to ${report.to}`,
      table(documentColumns, documentRows(report.b2b), 'None.'),
    ],
    [
      'B2C invoices by place of supply',
      table(
        ['PLACE OF SUPPLY', 'RATE', 'INVOICES', 'TAXABLE', 'IGST', 'CGST', 'SGST', 'TOTAL'],
        report.b2c.map((row) => [
          row.placeOfSupply,
          `${row.ratePercent}%`,
          row.documents,
          inr(row.taxableValue),
          inr(row.igst),
          inr(row.cgst),
          inr(row.sgst),
          inr(row.total),
        ]),
        'None.',
      ),
    ],
    ['Exports', table(documentColumns, documentRows(report.exports), 'None.')],
    ['Credit notes', table(documentColumns, documentRows(report.creditNotes), 'None.')],
  ];
  if (report.unconverted.length > 0)
    parts.push([null, `Left out (USD without a settled rupee value): ${report.unconverted.join(', ')}`]);
  return sections(parts);
}

const list = defineCommand({
  path: ['invoices', 'list'],
  summary: 'Invoices and credit notes of a period, split as GSTR-1 needs',
  options: PERIOD,
  example: 'invoices list --from 2026-04-01 --to 2026-04-30',
  details:
    'B2B invoices (with the buyer GSTIN) one by one, B2C invoices summed by place of supply, exports and\n' +
    'credit notes apart. Rupee figures; USD documents at the value Razorpay settled.',
  async run(env, { options }) {
    const period = parsePeriod(options);
    const ctx = await env.open();
    const report = await gstr1Report(ctx, period);
    return { data: report, text: reportText(report), exitCode: report.unconverted.length > 0 ? 1 : 0 };
  },
});

const exportCommand = defineCommand({
  path: ['invoices', 'export'],
  summary: 'The GSTR-1 split of a period as CSV (for the accountant)',
  options: { csv: { type: 'boolean', description: 'CSV output (the default)' }, ...PERIOD },
  example: 'invoices export --from 2026-04-01 --to 2026-04-30 --csv > gstr1-2026-04.csv',
  details:
    'One row per B2B invoice, export and credit note, one per place of supply and rate for B2C; the\n' +
    '`section` column (b2b, b2c, exp, cdn) tells them apart. Amounts in rupees with two decimals.',
  async run(env, { options }) {
    if (options.csv === false)
      throw new CommandError('invoices export only writes CSV (or JSON with --json).');
    const period = parsePeriod(options);
    const ctx = await env.open();
    const report = await gstr1Report(ctx, period);
    return {
      data: report,
      text: gstr1Csv(report),
      exitCode: report.unconverted.length > 0 ? 1 : 0,
    };
  },
});

export const invoiceCommands = [list, exportCommand];
