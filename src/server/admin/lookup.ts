import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { CommandError } from './framework';

const FULL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Tables show the first 8 characters of an id; any unambiguous start of at least 4 finds the row. */
const ID_PREFIX = /^[0-9a-f]{4}[0-9a-f-]{0,32}$/i;

/**
 * The condition that selects a row by the id the operator typed: the whole UUID, or the start of it as the tables
 * show it. Undefined when the text cannot be such an id.
 */
export function idCondition(column: PgColumn, typed: string): SQL | undefined {
  const text = typed.trim().toLowerCase();
  if (FULL_UUID.test(text)) return eq(column, text);
  if (ID_PREFIX.test(text)) return sql`${column}::text like ${`${text}%`}`;
  return undefined;
}

/**
 * Finds exactly one row whose id the operator typed (or its start). Refuses clearly when the text is not an id,
 * matches nothing, or matches several rows.
 */
export async function findOne<Row>(options: {
  idColumn: PgColumn;
  typed: string;
  /** "tool", "order", "message": used in the messages. */
  noun: string;
  /** Where the operator finds valid ids, e.g. "tools list". */
  listCommand: string;
  /** Another way to name the row (a Razorpay id, an email), used instead of the id when given. */
  alternative?: SQL;
  select: (where: SQL) => Promise<Row[]>;
}): Promise<Row> {
  const condition = options.alternative ?? idCondition(options.idColumn, options.typed);
  if (!condition) {
    throw new CommandError(
      `"${options.typed}" is not ${article(options.noun)} ${options.noun} id; see "${options.listCommand}".`,
    );
  }
  const rows = await options.select(condition);
  if (rows.length === 0) throw new CommandError(`No ${options.noun} with id ${options.typed}.`);
  if (rows.length > 1) {
    throw new CommandError(`The id ${options.typed} matches several ${options.noun}s; give more of it.`);
  }
  return rows[0] as Row;
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? 'an' : 'a');

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
    return new Date(now.getTime() - Number(age[1]) * unit);
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
