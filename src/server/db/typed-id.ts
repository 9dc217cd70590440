import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { DomainError } from '../kernel/domain-error';

const FULL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Lists show the first 8 characters of an id; any unambiguous start of at least 4 finds the row. */
const ID_PREFIX = /^[0-9a-f]{4}[0-9a-f-]{0,32}$/i;

/**
 * The condition that selects a row by the id an operator typed: the whole UUID, or the start of it as lists show
 * it. Undefined when the text cannot be such an id.
 */
function idCondition(column: PgColumn, typed: string): SQL | undefined {
  const text = typed.trim().toLowerCase();
  if (FULL_UUID.test(text)) return eq(column, text);
  if (ID_PREFIX.test(text)) return sql`${column}::text like ${`${text}%`}`;
  return undefined;
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? 'an' : 'a');

/**
 * Finds exactly one row by the id an operator typed (or its start). Refuses with a `DomainError` when the text is
 * not an id (`invalid`), matches nothing (`not_found`) or matches several rows (`invalid`).
 */
export async function findByTypedId<Row>(options: {
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
    throw new DomainError(
      'invalid',
      `"${options.typed}" is not ${article(options.noun)} ${options.noun} id; see "${options.listCommand}".`,
    );
  }
  const rows = await options.select(condition);
  if (rows.length === 0) throw new DomainError('not_found', `No ${options.noun} with id ${options.typed}.`);
  if (rows.length > 1) {
    throw new DomainError(
      'invalid',
      `The id ${options.typed} matches several ${options.noun}s; give more of it.`,
    );
  }
  return rows[0] as Row;
}
