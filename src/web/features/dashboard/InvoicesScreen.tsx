import { type FormEvent, useState } from 'react';
import type { InvoicePeriod, InvoiceReport } from '../../../shared/dashboard';
import { formatSubunits } from '../../../shared/money';
import { QUARTER_MESSAGE, quarterDays, type TdsReportRow } from '../../../shared/tds-report';
import { Button, FormError } from '../../components/form';
import { dashboardApi, queryString } from './api';
import { type Column, DataTable } from './DataTable';
import { DateRangeInputs, FilterInput } from './fields';
import { Download } from './icons';
import { ScreenTitle, useScreenTitle } from './ui';
import { useDashboardData } from './useDashboardData';

const inr = (paise: number) => formatSubunits(paise, 'INR');
const SECTIONS = { b2b: 'B2B invoice', exp: 'Export', cdn: 'Credit note' } as const;

const figures = <
  Row extends { taxableValue: number; igst: number; cgst: number; sgst: number; total: number },
>(): Array<Column<Row, never>> => [
  { key: 'taxable', label: 'Taxable', render: (row) => inr(row.taxableValue) },
  { key: 'igst', label: 'IGST', render: (row) => inr(row.igst) },
  { key: 'cgst', label: 'CGST', render: (row) => inr(row.cgst) },
  { key: 'sgst', label: 'SGST', render: (row) => inr(row.sgst) },
  { key: 'total', label: 'Total', render: (row) => inr(row.total) },
];

type DocumentRow = InvoiceReport['documents'][number];
const DOCUMENT_COLUMNS: Array<Column<DocumentRow, never>> = [
  {
    key: 'number',
    label: 'Number',
    render: (row) => (row.originalNumber ? `${row.number} (for ${row.originalNumber})` : row.number),
  },
  { key: 'section', label: 'Kind', render: (row) => SECTIONS[row.section] },
  { key: 'date', label: 'Date', render: (row) => row.date },
  {
    key: 'buyer',
    label: 'Buyer',
    render: (row) => [row.buyerName, row.buyerGstin].filter(Boolean).join(' · '),
  },
  { key: 'place', label: 'Place of supply', render: (row) => row.placeOfSupply },
  ...figures<DocumentRow>(),
];

type B2cRow = InvoiceReport['b2c'][number];
const B2C_COLUMNS: Array<Column<B2cRow, never>> = [
  { key: 'place', label: 'Place of supply', render: (row) => row.placeOfSupply },
  { key: 'rate', label: 'Rate', render: (row) => `${row.ratePercent}%` },
  { key: 'documents', label: 'Invoices', render: (row) => row.documents },
  ...figures<B2cRow>(),
];

const CERTIFICATE = {
  missing: 'Not received',
  received: 'Received',
  checked: 'Received and checked',
} as const;
const TDS_COLUMNS: Array<Column<TdsReportRow, never>> = [
  { key: 'settled', label: 'Settled', render: (row) => row.settledOn },
  { key: 'buyer', label: 'Buyer', render: (row) => `${row.buyerName} · ${row.pan}` },
  { key: 'invoice', label: 'Invoice', render: (row) => row.invoiceNumber ?? '' },
  { key: 'taxable', label: 'Taxable', render: (row) => inr(row.taxableValue) },
  { key: 'tds', label: 'TDS', render: (row) => inr(row.tdsAmount) },
  {
    key: 'form16a',
    label: 'Form 16A',
    render: (row) =>
      row.certificateReceivedOn
        ? `${CERTIFICATE[row.certificate]} ${row.certificateReceivedOn}`
        : CERTIFICATE[row.certificate],
  },
];

/** This quarter of the financial year in India (April to June is Q1). */
function thisQuarter(): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
  const [year = 2026, month = 1] = today.split('-').map(Number);
  return month >= 4 ? `${year}-Q${Math.floor((month - 4) / 3) + 1}` : `${year - 1}-Q4`;
}

/**
 * TDS receivable of a quarter (issue 68; the command line's `invoices tds`): orders whose buyer deducted TDS, for the
 * accountant to match against Form 26AS, with the Form 16A received or not.
 */
function TdsReceivable() {
  const [quarter, setQuarter] = useState(thisQuarter);
  const [typed, setTyped] = useState(quarter);
  const [problem, setProblem] = useState<string | null>(null);
  const { data, error } = useDashboardData(() => dashboardApi.tdsReport(quarter), quarter);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const valid = quarterDays(typed) !== null;
    setProblem(valid ? null : QUARTER_MESSAGE);
    if (valid) setQuarter(typed.trim().toUpperCase());
  };
  return (
    <section aria-labelledby="tds-heading" className="mt-8 space-y-4">
      <h2 id="tds-heading" className="text-lg font-semibold text-slate-900">
        TDS receivable (s.194J), for Form 26AS
      </h2>
      <form
        onSubmit={submit}
        noValidate
        className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-[1fr_auto] sm:items-end"
      >
        <FilterInput
          id="tds-quarter"
          label="Quarter of the financial year"
          required
          value={typed}
          placeholder="2026-Q3"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'tds-quarter-error' : undefined}
          onValueChange={setTyped}
        />
        <Button type="submit">Show</Button>
        <div id="tds-quarter-error" className="sm:col-span-2">
          <FormError message={problem} />
        </div>
      </form>
      <FormError message={error} />
      {data && (
        <>
          <DataTable
            caption={`TDS receivable, ${data.quarter} (${data.from} to ${data.to})`}
            columns={TDS_COLUMNS}
            rows={data.rows}
            rowKey={(row) => row.orderId}
            empty="No TDS deducted in this quarter."
          />
          <p className="text-sm text-slate-700">
            {data.rows.length} order(s): TDS receivable {inr(data.totals.tdsAmount)} on a taxable value of{' '}
            {inr(data.totals.taxableValue)}; Form 16A received for {data.totals.received}, missing for{' '}
            {data.totals.missing}. CSV:{' '}
            <code>npm run admin -- invoices tds --quarter {data.quarter} --csv</code>
          </p>
        </>
      )}
    </section>
  );
}

/** The first and last day of this month in India, the accountant's usual period. */
function thisMonth(): InvoicePeriod {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
  const [year = '2026', month = '01'] = today.split('-');
  return { from: `${year}-${month}-01`, to: today };
}

/**
 * Invoices: the GSTR-1 split of a period (the command line's `invoices list`) and its CSV export for the accountant,
 * then the TDS receivable of a quarter.
 */
export function InvoicesScreen() {
  useScreenTitle('Invoices');
  const [period, setPeriod] = useState<InvoicePeriod>(thisMonth);
  const [form, setForm] = useState<InvoicePeriod>(period);
  const { data, error } = useDashboardData(() => dashboardApi.invoices(period), JSON.stringify(period));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPeriod(form);
  };
  return (
    <>
      <ScreenTitle title="Invoices">
        <a
          href={`/api/admin/invoices/export${queryString(period)}`}
          download
          className="inline-flex min-h-10 items-center gap-1.5 rounded-lg bg-brand-800 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900"
        >
          <Download className="size-4" aria-hidden="true" />
          Export CSV for the accountant
        </a>
      </ScreenTitle>
      <search className="mb-4 block">
        <form
          onSubmit={submit}
          className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
        >
          <DateRangeInputs idPrefix="invoices" range={form} onChange={setForm} required />
          <Button type="submit">Show</Button>
        </form>
      </search>
      <FormError message={error} />
      {data && (
        <div className="space-y-4">
          <h2 className="text-lg font-semibold text-slate-900">B2B invoices, exports and credit notes</h2>
          <DataTable
            caption={`Invoices and credit notes, ${data.from} to ${data.to}`}
            columns={DOCUMENT_COLUMNS}
            rows={data.documents}
            rowKey={(row) => row.number}
            empty="None in this period."
          />
          <h2 className="text-lg font-semibold text-slate-900">B2C invoices by place of supply</h2>
          <DataTable
            caption={`B2C invoices by place of supply, ${data.from} to ${data.to}`}
            columns={B2C_COLUMNS}
            rows={data.b2c}
            rowKey={(row) => `${row.placeOfSupply}-${row.ratePercent}`}
            empty="None in this period."
          />
          {data.unconverted.length > 0 && (
            <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">
              Left out (USD without a settled rupee value yet): {data.unconverted.join(', ')}
            </p>
          )}
        </div>
      )}
      <TdsReceivable />
    </>
  );
}
