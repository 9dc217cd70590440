import { randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { toolEditions, tools } from '../../src/server/db/schema/catalogue';
import { type ReleaseDay, seedStagedRollout } from '../bench-release-day';
import { activatedLicenses, type SeedTarget, signedIn } from './prod-server';

/**
 * What the soak seeds beyond startProductionServer's own (issue 69's new paths): a tool whose update feeds are read
 * at a staged rollout, and signed-in buyers who each own a license of a tool sold as Standard and Pro with a year of
 * updates, one buyer for each upgrade, renewal and offline activation the run will make (each changes its license
 * once: an upgraded license is at the top, a renewed one is not renewable again for a year).
 */
export type SoakShop = {
  /** The machines reading their feeds (`fleet`) and their tool's Velopack package id. */
  feed: ReleaseDay;
  upgrade: SoakBuyer[];
  renewal: SoakBuyer[];
  offline: SoakBuyer[];
};

/** A buyer signed in (the cookie their browser sends) with their license of the editions tool. */
export type SoakBuyer = { cookie: string; licenseId: string; toolId: string };

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Renewals open 60 days before the end of updates (RENEWAL_OFFER_DAYS), the first reminder is due 30 days before it
 * (RENEWAL_REMINDER_DAYS): each license's ends in 45, renewable now without a burst of reminders queued as the
 * server starts.
 */
const UPDATES_END_IN_DAYS = 45;
/** After the shop's own tools, so the soak's purchase stream keeps buying the tool it bought before. */
const LAST = 1_000;

/** A tool sold as Standard and Pro, each with 12 months of updates and ₹599 to renew; its Standard edition's id. */
async function editionsTool({ db }: SeedTarget): Promise<{ toolId: string; standardId: string }> {
  const tag = randomBytes(3).toString('hex');
  const [tool] = await db
    .insert(tools)
    .values({
      name: `Soak Editions ${tag}`,
      description: 'A tool the soak upgrades, renews and activates without internet.',
      device: 'Windows',
      priceInrPaise: 149_900,
      delivery: 'license_key',
      sortOrder: LAST,
    })
    .returning({ id: tools.id });
  if (!tool) throw new Error('could not create the editions tool');
  const period = { updatesMonths: 12, renewalPriceInrPaise: 59_900 };
  const [standard] = await db
    .insert(toolEditions)
    .values([
      { toolId: tool.id, name: 'Standard', position: 1, priceInrPaise: 149_900, ...period },
      { toolId: tool.id, name: 'Pro', position: 2, priceInrPaise: 299_900, entitlements: ['ocr'], ...period },
    ])
    .returning({ id: toolEditions.id });
  if (!standard) throw new Error('could not create the editions');
  return { toolId: tool.id, standardId: standard.id };
}

/** `count` buyers of the editions tool's Standard edition, each signed in, their updates ending in 45 days. */
async function buyersOf(
  target: SeedTarget,
  tool: { toolId: string; standardId: string },
  count: number,
): Promise<SoakBuyer[]> {
  const licenses = await activatedLicenses(target.db, target.secrets, count, {
    toolId: tool.toolId,
    license: {
      editionId: tool.standardId,
      updatesUntil: new Date(Date.now() + UPDATES_END_IN_DAYS * DAY_MS),
    },
  });
  const cookies = await signedIn(
    target.db,
    licenses.map((license) => license.holderId),
  );
  return licenses.map((license, index) => ({
    cookie: cookies[index] ?? '',
    licenseId: license.licenseId,
    toolId: license.toolId,
  }));
}

/** Fills `shop` before the server starts (startProductionServer's `seed`): `buyers` buyers for each stream. */
export function soakShopSeed(shop: SoakShop, sizes: { feedMachines: number; buyers: number }) {
  return async (target: SeedTarget) => {
    await seedStagedRollout(target, shop.feed, sizes.feedMachines, 'Soak Feeds');
    const tool = await editionsTool(target);
    shop.upgrade.push(...(await buyersOf(target, tool, sizes.buyers)));
    shop.renewal.push(...(await buyersOf(target, tool, sizes.buyers)));
    shop.offline.push(...(await buyersOf(target, tool, sizes.buyers)));
    await target.db
      .update(tools)
      .set({ sortOrder: LAST })
      .where(inArray(tools.id, [...shop.feed.packageIds.keys()]));
  };
}

/** An empty shop for `soakShopSeed` to fill. */
export const emptySoakShop = (): SoakShop => ({
  feed: { fleet: [], packageIds: new Map() },
  upgrade: [],
  renewal: [],
  offline: [],
});
