import type { Currency } from '../../shared/constants';
import { formatSubunits } from '../../shared/money';
import { formatOperatorTime } from '../kernel/operator-time';

/** How people read the command's answers: aligned tables, short ids, times in India time (IST). */

const MAX_CELL = 48;

/** Characters a terminal draws two columns wide (CJK and friends); enough for names typed by customers. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += WIDE.test(char) ? 2 : 1;
  return width;
}

/** One line, at most `max` columns: control characters and line breaks never reach the terminal. */
export function cell(value: unknown, max = MAX_CELL): string {
  const text = value === null || value === undefined || value === '' ? '—' : String(value);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  if (displayWidth(flat) <= max) return flat;
  let out = '';
  for (const char of flat) {
    if (displayWidth(out + char) > max - 1) break;
    out += char;
  }
  return `${out}…`;
}

/**
 * A plain-text table with a header row; `empty` is printed when there are no rows. Cells are cut to keep the
 * columns readable, except the last one (an error, a message), which can run on without breaking the alignment.
 */
export function table(headers: string[], rows: unknown[][], empty: string): string {
  if (rows.length === 0) return empty;
  const last = headers.length - 1;
  const cells = rows.map((row) => row.map((value, column) => cell(value, column === last ? 2000 : MAX_CELL)));
  const widths = headers.map((header, column) =>
    Math.max(displayWidth(header), ...cells.map((row) => displayWidth(row[column] ?? ''))),
  );
  const line = (values: string[]) =>
    values
      .map((value, column) => value + ' '.repeat(Math.max(0, (widths[column] ?? 0) - displayWidth(value))))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width, column) =>
    '-'.repeat(
      column === last ? Math.max(displayWidth(headers[column] ?? ''), Math.min(width, MAX_CELL)) : width,
    ),
  );
  return [line(headers), line(rule), ...cells.map(line)].join('\n');
}

/** Label/value lines, aligned: the shape of every "show" command. */
export function details(rows: Array<[label: string, value: unknown]>): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows
    .map(([label, value]) => {
      const text = value === null || value === undefined || value === '' ? '—' : String(value);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: keep line breaks, drop other control characters
      const safe = text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, ' ');
      const [first, ...more] = safe.split('\n');
      return [
        `${label.padEnd(width)}  ${first}`,
        ...more.map((next) => `${' '.repeat(width + 2)}${next}`),
      ].join('\n');
    })
    .join('\n');
}

/** Titled sections separated by blank lines. */
export function sections(parts: Array<[title: string | null, body: string]>): string {
  return parts.map(([title, body]) => (title ? `${title}\n${body}` : body)).join('\n\n');
}

export const shortId = (id: string) => id.slice(0, 8);

/** "2026-06-01 15:30 IST": India time, as the dashboard shows it. */
export const formatTime = formatOperatorTime;

export const formatMoney = (subunits: number, currency: Currency) => formatSubunits(subunits, currency);

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export { csv, csvField } from '../kernel/csv';

/** JSON for --json: dates as ISO strings, pretty enough to read, stable enough to parse. */
export const toJson = (data: unknown) => JSON.stringify(data, null, 2);
