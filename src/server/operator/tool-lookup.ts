/**
 * Finding the tool an operator names: by id, id prefix or exact name. Shared by the dashboard, the command line
 * and the features the operator acts on (shop, releases, coupons), so none of them imports another for it.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { tools } from '../db/schema/catalogue';
import { findByTypedId } from '../db/typed-id';
import { DomainError } from '../kernel/domain-error';

type ToolRow = typeof tools.$inferSelect;

/** A tool by the id the operator typed (or its start); `forUpdate` locks the row for the transaction. */
export function findTool(db: DbOrTx, typed: string, forUpdate = false): Promise<ToolRow> {
  return findByTypedId({
    idColumn: tools.id,
    typed,
    noun: 'tool',
    listCommand: 'tools list',
    select: (where) => {
      const query = db.select().from(tools).where(where).limit(2);
      return forUpdate ? query.for('update') : query;
    },
  });
}

/**
 * A tool by its exact name (case aside) or the id the operator typed (or its start): how the release commands
 * take TOOL. A name shared by several tools asks for the id.
 */
export async function findToolByIdOrName(db: DbOrTx, typed: string, forUpdate = false): Promise<ToolRow> {
  const query = db
    .select()
    .from(tools)
    .where(sql`lower(${tools.name}) = ${typed.trim().toLowerCase()}`)
    .limit(2);
  const named = forUpdate ? await query.for('update') : await query;
  if (named.length > 1) {
    throw new DomainError(
      'invalid',
      `Several tools are named "${typed.trim()}"; give the id ("tools list" shows it).`,
    );
  }
  if (named[0]) return named[0];
  try {
    return await findTool(db, typed, forUpdate);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'invalid' && !/several/.test(error.message)) {
      throw new DomainError(
        'not_found',
        `No tool is named "${typed.trim()}" and it is not a tool id; see "tools list".`,
      );
    }
    throw error;
  }
}
