/**
 * Dates as the portal writes them: '22 Nov 2026', or '22 Nov 2026, 3:05 pm' with the time, in the reader's time
 * zone, or in India's for an order (its invoice dates it there). The words are what `Intl.DateTimeFormat('en-IN')`
 * writes for these options ('Sept' included, as CLDR spells it for India).
 *
 * Written here rather than through `Intl.DateTimeFormat`: the first formatter a page makes costs the browser its
 * date-pattern data, 9–15 ms of main thread on this machine and four times that on a phone, and My Tools made it
 * while drawing its first card: the one long task left on the page (decision 052).
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] as const;

/** India's offset from UTC: +5:30 all year (no daylight saving). */
const INDIA_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

export type DateStyle = 'day' | 'dayInIndia' | 'dayAndTime' | 'dayAndTimeInIndia';

type Parts = { day: number; month: number; year: number; hours: number; minutes: number };

const localParts = (date: Date): Parts => ({
  day: date.getDate(),
  month: date.getMonth(),
  year: date.getFullYear(),
  hours: date.getHours(),
  minutes: date.getMinutes(),
});

function indianParts(date: Date): Parts {
  const shifted = new Date(date.getTime() + INDIA_OFFSET_MS);
  return {
    day: shifted.getUTCDate(),
    month: shifted.getUTCMonth(),
    year: shifted.getUTCFullYear(),
    hours: shifted.getUTCHours(),
    minutes: shifted.getUTCMinutes(),
  };
}

/** `value` (an ISO string from the API, or a Date) in `style`. An unreadable date throws, as Intl's `format` does. */
export function formatDate(value: string | Date, style: DateStyle = 'day'): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid time value');
  const { day, month, year, hours, minutes } =
    style === 'dayAndTimeInIndia' || style === 'dayInIndia' ? indianParts(date) : localParts(date);
  const dayText = `${day} ${MONTHS[month]} ${year}`;
  if (style === 'day' || style === 'dayInIndia') return dayText;
  const hour = hours % 12 === 0 ? 12 : hours % 12;
  return `${dayText}, ${hour}:${String(minutes).padStart(2, '0')} ${hours < 12 ? 'am' : 'pm'}`;
}
