import { is, type SQL, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Database, DatabaseHandle } from './index';
import { openDatabase } from './index';
import * as schema from './schema/all-tables';

/** Rows carried per statement: one JSON array each way, so memory stays bounded whatever the table's size. */
const BATCH = 2000;

export type TableFigures = { table: string; rows: number; checksum: string };

export class MoveRefused extends Error {}

/** A PostgreSQL URL with its password hidden, for messages. */
export function maskedUrl(text: string): string {
  const url = new URL(text);
  if (url.password) url.password = '***';
  return url.toString();
}

/** The PostgreSQL database a move copies into, once it answers a query; refused with why it cannot be used. */
export async function openMoveTarget(url: string): Promise<DatabaseHandle> {
  const target = await openDatabase({ databaseUrl: url, pgliteDir: '' });
  try {
    await target.db.execute(sql`select 1`);
    return target;
  } catch (error) {
    await target.close().catch(() => {});
    const message =
      error instanceof Error ? (error.cause instanceof Error ? error.cause : error).message : '';
    throw new MoveRefused(`Cannot use PostgreSQL at ${maskedUrl(url)}: ${message}`);
  }
}

/**
 * References that close a loop (an invoice cancelled by a credit note of that invoice; an order adding seats to a
 * license that an earlier order's purchase made) or point into their own table (a member's license names its
 * team's). Migration 0025 makes them deferrable: the copy defers them to its commit, so their rows go in in any order.
 */
const DEFERRED_REFERENCES: ReadonlyArray<{ table: string; column: string }> = [
  { table: 'invoices', column: 'cancelled_by_credit_note_id' },
  { table: 'orders', column: 'license_id' },
  { table: 'licenses', column: 'team_license_id' },
  { table: 'tools', column: 'trial_edition_id' },
];
const deferredIn = (table: string) =>
  DEFERRED_REFERENCES.filter((reference) => reference.table === table).map((reference) => reference.column);

/** Every table of the schema, each after the tables its foreign keys point to, so rows insert in this order. */
export function tablesInDependencyOrder(): string[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
  const parents = new Map(
    tables.map((table) => {
      const config = getTableConfig(table);
      const refs = config.foreignKeys
        .filter(
          (key) => !key.reference().columns.every((column) => deferredIn(config.name).includes(column.name)),
        )
        .map((key) => getTableConfig(key.reference().foreignTable).name);
      return [config.name, refs.filter((name) => name !== config.name)];
    }),
  );
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name)) return;
    if (path.has(name)) throw new Error(`foreign keys form a loop through ${name}`);
    for (const parent of parents.get(name) ?? []) visit(parent, new Set([...path, name]));
    ordered.push(name);
  };
  for (const name of [...parents.keys()].sort()) visit(name, new Set());
  return ordered;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * A table's row count and an order-independent checksum: the sum of the first 64 bits of each row's MD5 (of the
 * row as JSON, times in UTC). Equal figures on both sides mean the same rows, whatever order they were read in.
 */
export async function tableFigures(db: Database, table: string): Promise<TableFigures> {
  const [row] = rowsOf<{ rows: number; checksum: string }>(
    await db.execute(sql`select count(*)::int as rows,
        coalesce(sum(('x' || substr(md5(row_to_json(t)::text), 1, 16))::bit(64)::bigint::numeric), 0)::text
          as checksum
      from ${sql.identifier(table)} t`),
  );
  return { table, rows: row?.rows ?? 0, checksum: row?.checksum ?? '0' };
}

const utc: SQL = sql`set local timezone = 'UTC'`;

/** Tables of the target's public schema that hold at least one row. */
async function nonEmptyTables(db: Database): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'`),
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const [row] = rowsOf<{ any: boolean }>(
      await db.execute(sql`select exists (select 1 from ${sql.identifier(name)}) as any`),
    );
    if (row?.any) found.push(name);
  }
  return found;
}

/** When the last migration applied to `db` was written (Drizzle's journal), or undefined when none was. */
async function latestMigration(db: Database): Promise<string | undefined> {
  try {
    const [row] = rowsOf<{ at: string | null }>(
      await db.execute(sql`select max(created_at)::text as at from drizzle.__drizzle_migrations`),
    );
    return row?.at ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Copies every row of the embedded database into an empty PostgreSQL database: the same migrations first, then
 * each table in dependency order inside one transaction on the target, serial sequences set past the copied
 * ids, and every table's row count and checksum compared before the transaction commits. The source is only
 * read (in one repeatable-read transaction, so the copy is one consistent moment). Refuses a target that holds
 * any row; a mismatch rolls the whole copy back. `beforeCommit` writes what the caller records of the move (its
 * audit entry) in the copy's own transaction, once the copy is verified: both commit, or neither.
 */
export async function moveToPostgres(
  source: DatabaseHandle,
  target: DatabaseHandle,
  {
    progress = () => {},
    beforeCommit = async () => {},
  }: {
    progress?: (line: string) => void;
    beforeCommit?: (to: Database, tables: TableFigures[]) => Promise<void>;
  } = {},
): Promise<TableFigures[]> {
  const occupied = await nonEmptyTables(target.db);
  if (occupied.length > 0)
    throw new MoveRefused(`The target database is not empty (${occupied.slice(0, 5).join(', ')} hold rows).`);
  await target.migrate();
  // Rows of an older schema would land in the new one with NULL where a migration would have filled a column.
  const [from, to] = [await latestMigration(source.db), await latestMigration(target.db)];
  if (from !== to)
    throw new MoveRefused(
      "The embedded database is not at this version's schema: start the server on it once (it upgrades the database at start), stop it, then move.",
    );
  const tables = tablesInDependencyOrder();

  return source.db.transaction(
    async (from) => {
      await from.execute(utc);
      const expected: TableFigures[] = [];
      for (const table of tables) expected.push(await tableFigures(from as unknown as Database, table));

      return target.db.transaction(async (to) => {
        await to.execute(utc);
        await to.execute(sql`set constraints all deferred`);
        for (const table of tables) {
          await copyTable(from as unknown as Database, to as unknown as Database, table);
          progress(`${table}: ${expected.find((figures) => figures.table === table)?.rows ?? 0} rows`);
        }
        await advanceSequences(to as unknown as Database);
        for (const want of expected) {
          const got = await tableFigures(to as unknown as Database, want.table);
          if (got.rows !== want.rows || got.checksum !== want.checksum)
            throw new Error(
              `${want.table} differs after the copy (${got.rows} rows, expected ${want.rows}); nothing was kept`,
            );
        }
        await beforeCommit(to as unknown as Database, expected);
        return expected;
      });
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** Reads the table through a cursor and inserts each batch as one JSON array that PostgreSQL turns back into rows. */
async function copyTable(from: Database, to: Database, table: string): Promise<void> {
  const cursor = sql.identifier(`move_${table}`);
  await from.execute(sql`declare ${cursor} no scroll cursor for
    select row_to_json(t)::text as row from ${sql.identifier(table)} t`);
  for (;;) {
    const rows = rowsOf<{ row: string }>(
      await from.execute(sql`fetch ${sql.raw(String(BATCH))} from ${cursor}`),
    );
    if (rows.length === 0) break;
    const batch = `[${rows.map((r) => r.row).join(',')}]`;
    await to.execute(sql`insert into ${sql.identifier(table)}
      select * from json_populate_recordset(null::${sql.identifier(table)}, ${batch}::json)`);
    if (rows.length < BATCH) break;
  }
  await from.execute(sql`close ${cursor}`);
}

/** Sets every serial column's sequence past the largest id copied, so the next insert gets a new id. */
async function advanceSequences(db: Database): Promise<void> {
  const serials = rowsOf<{ table: string; column: string }>(
    await db.execute(sql`select table_name as table, column_name as column from information_schema.columns
      where table_schema = 'public' and column_default like 'nextval(%'`),
  );
  for (const { table, column } of serials) {
    const name = sql.identifier(table);
    const col = sql.identifier(column);
    await db.execute(sql`select setval(pg_get_serial_sequence(${table}, ${column}),
      coalesce((select max(${col}) from ${name}), 1), (select max(${col}) from ${name}) is not null)`);
  }
}
