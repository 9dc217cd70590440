import { FILTER_DAY_MESSAGES, FILTER_YEARS, isFilterMoment } from '../../shared/dashboard';
import { CommandError } from './framework';

/**
 * `--since`: a date (2026-06-01), a date and time (2026-06-01T09:30, in local time unless it names a zone), or
 * an age such as 30m, 12h, 7d.
 */
export function parseSince(typed: string, now: Date): Date {
  const text = typed.trim();
  const age = /^(\d+)\s*([mhd])$/i.exec(text);
  if (age) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[
      (age[2] as string).toLowerCase() as 'm' | 'h' | 'd'
    ];
    const since = new Date(now.getTime() - Number(age[1]) * unit);
    if (!isFilterMoment(since)) throw new CommandError(`--since: ${FILTER_DAY_MESSAGES.outOfRange}`);
    return since;
  }
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const parsed = dateOnly
    ? new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]))
    : /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text)
      ? new Date(text.replace(' ', 'T'))
      : new Date(Number.NaN);
  if (Number.isNaN(parsed.getTime())) {
    throw new CommandError(`--since: "${typed}" is not a date or an age; use e.g. 2026-06-01 or 7d.`);
  }
  // new Date(99, 5, 15) is 1999: the typed year itself must be one a filter may name, as must the moment.
  const typedYear = Number(dateOnly?.[1] ?? parsed.getUTCFullYear());
  if (typedYear < FILTER_YEARS.first || typedYear > FILTER_YEARS.last || !isFilterMoment(parsed))
    throw new CommandError(`--since: ${FILTER_DAY_MESSAGES.outOfRange}`);
  return parsed;
}

/** `--limit`: a whole number from 1 to 1000. */
export function parseLimit(typed: string | undefined, fallback: number): number {
  if (typed === undefined) return fallback;
  const value = Number(typed);
  if (!/^\d+$/.test(typed.trim()) || value < 1 || value > 1000) {
    throw new CommandError(`--limit: "${typed}" must be a whole number from 1 to 1000.`);
  }
  return value;
}
