import { updateTool } from '../../src/server/catalogue/operator';
import type { tools } from '../../src/server/db/schema/catalogue';
import { cliActor } from '../../src/server/operator/audit';
import { toolChangesSchema } from '../../src/shared/dashboard';
import type { MyLicense } from '../../src/shared/licenses';
import type { TestApp } from './app';
import type { TestClient } from './client';
import { addTool } from './shop-fixtures';

/** Day 0 of issue 65's update-period tests, the day the license is bought. */
export const DAY_0 = new Date('2026-03-03T06:30:00Z');
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The instant `day` days after DAY_0. */
export const dayOf = (day: number) => new Date(DAY_0.getTime() + day * DAY_MS);

/**
 * A tool sold with 12 months of updates, ₹599 to renew (and `renewalPriceUSD` in dollars where given), changed as the
 * operator `by` would. Returns the tool's id.
 */
export async function addToolWithUpdatePeriod(
  t: TestApp,
  values: Partial<typeof tools.$inferInsert>,
  by: string,
  renewalPriceUSD?: string,
): Promise<string> {
  const toolId = (await addTool(t, values)).id;
  const changes = {
    updatesMonths: '12m',
    renewalPriceINR: '599',
    ...(renewalPriceUSD ? { renewalPriceUSD } : {}),
  };
  await updateTool(t.ctx, toolId, toolChangesSchema.parse(changes), cliActor(by));
  return toolId;
}

/** The license of `toolId` that My Tools lists for the signed-in `client`. */
export async function myLicenseOf(client: TestClient, toolId: string): Promise<MyLicense> {
  const found = (await client.get('/api/my-licenses/'))
    .json<MyLicense[]>()
    .find((each) => each.toolId === toolId);
  if (!found) throw new Error('no license of the tool in My Tools');
  return found;
}
