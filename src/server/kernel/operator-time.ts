/**
 * Times in messages for the operator (the command line, and the refusals services put them into), in India time
 * like the dashboard (issue 63): the firm works in India, whatever zone the server's machine runs in.
 */

const INDIA_TIME = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "2026-06-01 15:30 IST": India time, the zone named so nobody has to guess it. */
export function formatOperatorTime(date: Date | null | undefined): string {
  if (!date) return '—';
  const part = Object.fromEntries(INDIA_TIME.formatToParts(date).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute} IST`;
}

const INDIA_DAY = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/** "3 Mar 2027": the day a moment falls on in India, as buyers read dates in emails and on invoices. */
export const indiaDay = (date: Date): string => INDIA_DAY.format(date);
