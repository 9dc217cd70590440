/** CSV for the operator's exports (command line and dashboard alike), safe to open in a spreadsheet. */

/**
 * One CSV field (RFC 4180). Text that a spreadsheet would run as a formula (= + - @, tab, carriage return at the
 * start) gets a leading apostrophe: these cells hold what visitors typed into the contact form.
 */
export function csvField(value: unknown): string {
  let text =
    value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record with its line break. */
export const csvLine = (row: unknown[]): string => `${row.map(csvField).join(',')}\r\n`;

export function csv(headers: string[], rows: unknown[][]): string {
  return [headers, ...rows].map(csvLine).join('');
}
