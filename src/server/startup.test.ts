import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/support/app';
import { createTestDatabase } from '../../test/support/database';
import { activatedMachines, licensedPurchase } from '../../test/support/license-fixtures';
import { createAppContext } from './compose';
import type { DatabaseHandle } from './db';
import { tools } from './db/schema/catalogue';
import { licenseActivations } from './db/schema/licenses';
import { updateTokenHash, updateTokenOf } from './licenses/update-tokens';
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
      updateTokens: 0,
      artifacts: { signed: 0, missing: 0 },
      catalogueSeeded: false,
    });
    expect(await ctx.db.select().from(tools)).toHaveLength(seeded.length);
  });

  it('gives an activation from before update feeds its token hash, so its feeds find it, and only once', async () => {
    const ctx = createAppContext({ config: testConfig(), db: database.db });
    const purchase = await licensedPurchase(ctx);
    const [machine] = await activatedMachines(ctx, purchase.licenseId, 1);
    if (!machine) throw new Error('no machine');
    const hashOf = async () =>
      (
        await ctx.db
          .select({ hash: licenseActivations.updateTokenHash })
          .from(licenseActivations)
          .where(eq(licenseActivations.id, machine.activationId))
      )[0]?.hash;
    await ctx.db
      .update(licenseActivations)
      .set({ updateTokenHash: null })
      .where(eq(licenseActivations.id, machine.activationId));

    expect((await startUp(database, ctx)).updateTokens).toBe(1);
    expect(await hashOf()).toBe(
      updateTokenHash(ctx.dataSecrets, updateTokenOf(ctx.dataSecrets, machine.activationId)),
    );
    expect((await startUp(database, ctx)).updateTokens).toBe(0);
  });
});
