import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/support/app';
import { createTestDatabase } from '../../test/support/database';
import { createAppContext } from './compose';
import type { DatabaseHandle } from './db';
import { tools } from './db/schema/catalogue';
import { startUp } from './startup';

describe('startUp', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('gives an empty shop its catalogue once, and has nothing left to do at the next start', async () => {
    const ctx = createAppContext({ config: testConfig(), db: database.db });
    expect(await ctx.db.select().from(tools)).toEqual([]);
    const first = await startUp(database, ctx);
    expect(first.catalogueSeeded).toBe(true);
    const seeded = await ctx.db.select().from(tools);
    expect(seeded.length).toBeGreaterThan(0);
    // A second process on the same database (the command line, another instance) finds everything done.
    const again = await startUp(database, createAppContext({ config: testConfig(), db: database.db }));
    expect(again).toEqual({
      licenses: 0,
      emails: 0,
      endpoints: 0,
      artifacts: { signed: 0, missing: 0 },
      catalogueSeeded: false,
    });
    expect(await ctx.db.select().from(tools)).toHaveLength(seeded.length);
  });
});
