/**
 * The accountant's TDS receivable report (issue 68): orders whose buyer deducted TDS, by the quarter of the
 * financial year they were settled in (Form 26Q's quarters, which Form 26AS lists the credits by), with the
 * Form 16A received or not. Shared by the command line, the dashboard's screen and the server.
 */

/** `2026-Q3`: the financial year starting 1 April 2026, third quarter (October to December 2026). */
export const QUARTER_PATTERN = /^(\d{4})-Q([1-4])$/;

export const QUARTER_MESSAGE =
  'Give a quarter of the financial year as YYYY-Qn, e.g. 2026-Q3 for October to December 2026 (Q4 is January to March of the next year).';

/** The first and last day (India time, YYYY-MM-DD) of a financial year's quarter, or null for anything else. */
export function quarterDays(quarter: string): { from: string; to: string } | null {
  const match = QUARTER_PATTERN.exec(quarter.trim().toUpperCase());
  if (!match) return null;
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  if (year < 1900 || year > 2998) return null;
  const startMonth = 4 + 3 * index; // April, July, October, January (13)
  const startYear = startMonth > 12 ? year + 1 : year;
  const month = ((startMonth - 1) % 12) + 1;
  const lastDay = new Date(Date.UTC(startYear, month - 1 + 3, 0)).getUTCDate();
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    from: `${startYear}-${pad(month)}-01`,
    to: `${startYear}-${pad(month + 2)}-${pad(lastDay)}`,
  };
}

export type TdsReportRow = {
  orderId: string;
  /** When the order was settled, India time (YYYY-MM-DD). */
  settledOn: string;
  buyerName: string;
  buyerEmail: string;
  pan: string;
  invoiceNumber: string | null;
  invoiceDate: string | null;
  /** Subunits (paise). */
  taxableValue: number;
  tdsAmount: number;
  /** `missing`, `received` (uploaded, not yet checked) or `checked`. */
  certificate: 'missing' | 'received' | 'checked';
  certificateReceivedOn: string | null;
  orderStatus: string;
};

export type TdsReport = {
  quarter: string;
  from: string;
  to: string;
  rows: TdsReportRow[];
  totals: { taxableValue: number; tdsAmount: number; received: number; missing: number };
};
