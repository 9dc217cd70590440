import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/support/app';
import { emptyPostgresDatabase } from '../../../test/support/database';
import { createAppContext } from '../compose';
import { startUp } from '../startup';
import { type DatabaseHandle, openDatabase } from './index';
import { tools } from './schema/catalogue';

/**
 * Instances that start together on one PostgreSQL (every instance after the database host restarts, or two starts
 * of a rolling deploy that overlap) each migrate before they serve. Drizzle's migrator takes no lock of its own:
 * without the one around it, the second fails on a duplicate type or table and exits.
 */
const journal = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../drizzle/meta/_journal.json'), 'utf8'),
) as { entries: Array<{ tag: string }> };

let target: Awaited<ReturnType<typeof emptyPostgresDatabase>>;
const handles: DatabaseHandle[] = [];

beforeAll(async () => {
  target = await emptyPostgresDatabase();
});

afterAll(async () => {
  await Promise.all(handles.map((handle) => handle.close()));
  await target?.drop();
});

describe('three instances starting at once on an empty database', () => {
  it('all start: each migration is applied once and the default catalogue seeded once', async () => {
    for (let i = 0; i < 3; i++) handles.push(await openDatabase({ databaseUrl: target.url, pgliteDir: '' }));
    const config = testConfig({ DATABASE_URL: target.url });
    const starts = await Promise.allSettled(
      handles.map((database) => startUp(database, createAppContext({ config, db: database.db }))),
    );
    expect(
      starts.map((start) => (start.status === 'rejected' ? String(start.reason).split('\n')[0] : 'started')),
    ).toEqual(['started', 'started', 'started']);
    const [db] = handles.map((handle) => handle.db);
    if (!db) throw new Error('no database handle');
    const applied = await db.execute(sql`select count(*)::int as count from drizzle.__drizzle_migrations`);
    expect((applied as unknown as { rows: Array<{ count: number }> }).rows[0]?.count).toBe(
      journal.entries.length,
    );
    const seeded = starts.filter((start) => start.status === 'fulfilled' && start.value.catalogueSeeded);
    expect(seeded).toHaveLength(1);
    expect((await db.select({ id: tools.id }).from(tools)).length).toBeGreaterThan(0);
  });
});
