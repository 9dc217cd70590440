import { z } from 'zod';
import { FILTER_DAY_MESSAGES, FILTER_YEARS, isFilterMoment } from '../../shared/dashboard';
import { findOrder } from '../orders/read/operator';
import { type AdminEnv, argument } from './framework';

/**
 * Options several commands take, as fields of their input schemas (parsed by `parseCommandInput`, framework.ts).
 */

/**
 * What `--since` names: a date (2026-06-01), a date and time (2026-06-01T09:30, in local time unless it names a
 * zone), or an age before `now` such as 30m, 12h, 7d; undefined for anything else, 'out of range' for a moment a
 * filter may not name (before 1900 or after 2999: the database cannot hold every such date).
 */
export function sinceDate(typed: string, now: Date): Date | 'out of range' | undefined {
  const text = typed.trim();
  const age = /^(\d+)\s*([mhd])$/i.exec(text);
  if (age) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[
      (age[2] as string).toLowerCase() as 'm' | 'h' | 'd'
    ];
    const since = new Date(now.getTime() - Number(age[1]) * unit);
    return isFilterMoment(since) ? since : 'out of range';
  }
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const parsed = dateOnly
    ? new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]))
    : /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text)
      ? new Date(text.replace(' ', 'T'))
      : new Date(Number.NaN);
  if (Number.isNaN(parsed.getTime())) return undefined;
  // new Date(99, 5, 15) is 1999: the typed year itself must be one a filter may name, as must the moment.
  const typedYear = Number(dateOnly?.[1] ?? parsed.getUTCFullYear());
  if (typedYear < FILTER_YEARS.first || typedYear > FILTER_YEARS.last || !isFilterMoment(parsed))
    return 'out of range';
  return parsed;
}

/** `--since`, read when the command runs. */
export const sinceOption = z
  .string()
  .optional()
  .transform((typed, issue) => {
    if (typed === undefined) return undefined;
    const since = sinceDate(typed, new Date());
    if (since instanceof Date) return since;
    issue.addIssue({
      code: 'custom',
      message: since ? FILTER_DAY_MESSAGES.outOfRange : 'not a date or an age; use e.g. 2026-06-01 or 7d.',
    });
    return z.NEVER;
  });

/** `--limit`: a whole number from 1 to 1000, `fallback` when not given. */
export const limitOption = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((typed, issue) => {
      if (typed === undefined) return fallback;
      const value = Number(typed);
      if (/^\d+$/.test(typed.trim()) && value >= 1 && value <= 1000) return value;
      issue.addIssue({ code: 'custom', message: 'a whole number from 1 to 1000.' });
      return z.NEVER;
    });

/** One of a few words (any letter case, spaces around ignored), or a message that lists them. */
export const oneOfWords = <const W extends string>(words: readonly [W, ...W[]]) =>
  z.preprocess(
    (typed) => (typeof typed === 'string' ? typed.trim().toLowerCase() : typed),
    z.enum(words, { error: `one of ${words.join(', ')}.` }),
  );

/** An account's email address as an argument (any letter case). */
export const emailArgument = z
  .string()
  .trim()
  .refine((email) => email.includes('@'), 'not an email address.');

/** Opens the database and finds the order the command's first argument names (orders/read/operator.ts findOrder). */
export async function namedOrder(env: AdminEnv, input: { args: Array<string | undefined> }) {
  const ctx = await env.open();
  return { ctx, order: await findOrder(ctx.db, argument(input, 0)) };
}
