/**
 * Times in messages for the operator (the command line, later the dashboard), which services put into their
 * refusals too.
 */

const pad = (value: number) => String(value).padStart(2, '0');

/** "2026-06-01 15:30 +05:30": the operator's local time, with the offset so nobody has to guess the zone. */
export function formatOperatorTime(date: Date | null | undefined): string {
  if (!date) return '—';
  const offsetMinutes = -date.getTimezoneOffset();
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const offset = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())} ${offset}`;
}
