import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Each feature owns its tables (docs/structure.md, "Tables and their owners"): the tables live by owner in
 * db/schema/<owner>.ts, and only the owner's folders insert, update or delete their rows; every other feature calls
 * the owner's functions. Reading another feature's table (a join, a read model) is allowed. The database layer itself
 * (db/: moving and restoring a whole database) works on every table by design.
 */
const serverDir = import.meta.dirname;
const schemaDir = path.join(serverDir, 'db/schema');

/** The folders that own each schema file's tables. Accounts are one feature in two folders: signing in, and the account. */
const OWNERS: Record<string, readonly string[]> = {
  accounts: ['auth', 'account'],
  catalogue: ['catalogue'],
  checkout: ['checkout'],
  contact: ['contact'],
  coupons: ['coupons'],
  downloads: ['catalogue'],
  invoices: ['invoices'],
  licenses: ['licenses'],
  mail: ['mail'],
  operator: ['operator'],
  orders: ['orders'],
  payments: ['payments'],
  'rate-limits': ['http'],
  releases: ['releases'],
  teams: ['teams'],
  trials: ['trials'],
  webhooks: ['webhooks'],
};

/**
 * Tables owned by another folder than their file's, which their foreign keys decide: activation records the machines
 * that had a trial (one trial per machine is checked there), and the renewal reminders are sent by orders/, whose
 * renewals they invite.
 */
const TABLE_OWNERS: Record<string, readonly string[]> = {
  trialMachines: ['licenses'],
  renewalReminders: ['orders'],
};

const WHOLE_DATABASE = new Set(['db']);

type Table = { name: string; sqlName: string; owners: readonly string[] };

function tables(): Table[] {
  return readdirSync(schemaDir)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => {
      const owner = file.replace(/\.ts$/, '');
      const source = readFileSync(path.join(schemaDir, file), 'utf8');
      return [...source.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)].map(([, name, sqlName]) => ({
        name: name as string,
        sqlName: sqlName as string,
        owners: TABLE_OWNERS[name as string] ?? OWNERS[owner] ?? [],
      }));
    });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

/** `(root)` for the files at the top of src/server, else the first folder. */
const folderOf = (file: string) => {
  const relative = path.relative(serverDir, file);
  return relative.includes(path.sep) ? (relative.split(path.sep)[0] as string) : '(root)';
};

/** The tables a module writes: through Drizzle (`.insert(t)`, `.update(t)`, `.delete(t)`) or in SQL text. */
function writtenTables(source: string, known: readonly Table[]): string[] {
  const written = new Set<string>();
  for (const [, name] of source.matchAll(/\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g)) {
    const table = known.find((candidate) => candidate.name === name);
    if (table) written.add(table.name);
  }
  for (const [, sqlName] of source.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+"?(\w+)"?\s/gi)) {
    const table = known.find((candidate) => candidate.sqlName === sqlName);
    if (table) written.add(table.name);
  }
  return [...written];
}

function violations(
  modules: ReadonlyArray<{ file: string; source: string }>,
  known: readonly Table[],
): string[] {
  return modules.flatMap(({ file, source }) => {
    const folder = folderOf(file);
    if (WHOLE_DATABASE.has(folder)) return [];
    return writtenTables(source, known)
      .map((name) => known.find((table) => table.name === name) as Table)
      .filter((table) => !table.owners.includes(folder))
      .map(
        (table) =>
          `${path.relative(serverDir, file)} writes ${table.name} (owner: ${table.owners.join(', ')})`,
      );
  });
}

describe('tables and their owners', () => {
  it('give every table an owner folder that exists', () => {
    const known = tables();
    expect(known.length).toBeGreaterThan(35);
    const folders = new Set(readdirSync(serverDir, { withFileTypes: true }).map((entry) => entry.name));
    const orphans = known.filter(
      (table) => table.owners.length === 0 || table.owners.some((o) => !folders.has(o)),
    );
    expect(orphans.map((table) => table.name)).toEqual([]);
  });

  it('are written only by their owners', () => {
    const modules = sourceFiles(serverDir).map((file) => ({ file, source: readFileSync(file, 'utf8') }));
    expect(violations(modules, tables())).toEqual([]);
  });

  it('would name a module that writes another feature’s table, through Drizzle or in SQL', () => {
    const source = [
      'await tx.update(licenses).set({ seats: 3 });',
      'await tx.insert(teamInvitations).values(row);',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the planted module's source text, not a template
      'await tx.execute(sql`delete from download_tokens where purchase_id = ${id}`);',
    ].join('\n');
    const planted = { file: path.join(serverDir, 'teams/planted.ts'), source };
    expect(violations([planted], tables())).toEqual([
      'teams/planted.ts writes licenses (owner: licenses)',
      'teams/planted.ts writes downloadTokens (owner: catalogue)',
    ]);
    const whole = { file: path.join(serverDir, 'db/planted.ts'), source };
    expect(violations([whole], tables())).toEqual([]);
  });
});
