import { sql } from 'drizzle-orm';
import type { Tx } from '../db';
import { documentCounters } from '../db/schema/invoices';

export type DocumentSeries = 'invoice' | 'credit-note' | 'proforma';

const SERIES_LETTER: Record<DocumentSeries, string> = { invoice: '', 'credit-note': 'C', proforma: 'P' };

const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
const MAX_SERIAL = 99_999;

/** The calendar date in India (UTC+5:30, no daylight saving) of an instant, as YYYY-MM-DD. */
export function indiaDate(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** India's financial year (1 April to 31 March, India time) of an instant: "26-27" for 2026-27. */
export function financialYearOf(at: Date): string {
  const [year, month] = indiaDate(at).split('-').map(Number) as [number, number];
  const start = month >= 4 ? year : year - 1;
  const yy = (n: number) => String(n % 100).padStart(2, '0');
  return `${yy(start)}-${yy(start + 1)}`;
}

/**
 * `PCA/26-27/00001` for invoices, `PCAC/26-27/00001` for credit notes, `PCAP/26-27/00001` for proforma invoices
 * (their own series, issue 68): at most 16 characters (rule 46 (b)).
 */
export function formatDocumentNumber(
  prefix: string,
  series: DocumentSeries,
  financialYear: string,
  serial: number,
): string {
  const seriesPrefix = `${prefix}${SERIES_LETTER[series]}`;
  return `${seriesPrefix}/${financialYear}/${String(serial).padStart(5, '0')}`;
}

/**
 * Takes the next number of a series in the financial year of `at`, inside the caller's transaction. The upsert
 * locks the counter row until that transaction ends: a concurrent issue waits, and a rollback returns the number,
 * so the numbers that exist are consecutive from 1 with no gap. The first issue of a new year creates its row.
 */
export async function nextDocumentNumber(
  tx: Tx,
  input: { series: DocumentSeries; prefix: string; at: Date },
): Promise<{ number: string; financialYear: string; serial: number }> {
  const financialYear = financialYearOf(input.at);
  const [row] = await tx
    .insert(documentCounters)
    .values({ series: input.series, financialYear, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [documentCounters.series, documentCounters.financialYear],
      set: { lastNumber: sql`${documentCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: documentCounters.lastNumber });
  if (!row) throw new Error('document counter upsert returned no row');
  if (row.lastNumber > MAX_SERIAL)
    throw new Error(`the ${input.series} series of ${financialYear} has run out of 5-digit numbers`);
  return {
    number: formatDocumentNumber(input.prefix, input.series, financialYear, row.lastNumber),
    financialYear,
    serial: row.lastNumber,
  };
}
