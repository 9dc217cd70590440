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

/** The firm works in India: "today" and a chart's days are calendar days in Asia/Kolkata (UTC+5:30, no DST). */
const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The calendar day in India of an instant (milliseconds), as YYYY-MM-DD. */
export const istDay = (instant: number) => new Date(instant + IST_OFFSET_MS).toISOString().slice(0, 10);

/** The instant an Indian calendar day (YYYY-MM-DD) begins, in milliseconds. */
export const istMidnight = (day: string) => Date.parse(`${day}T00:00:00+05:30`);

/** The last `count` Indian calendar days up to the one `now` is in, oldest first. */
export const lastIstDays = (now: number, count: number) => {
  const today = istMidnight(istDay(now));
  return Array.from({ length: count }, (_, i) => istDay(today - (count - 1 - i) * DAY_MS));
};

const INDIA_DAY = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/** "3 Mar 2027": the day a moment falls on in India, as buyers read dates in emails and on invoices. */
export const indiaDay = (date: Date): string => INDIA_DAY.format(date);
