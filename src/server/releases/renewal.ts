import { eq } from 'drizzle-orm';
import type { Currency } from '../../shared/constants';
import type { RenewalOffer } from '../../shared/licenses';
import { toolEditions, tools } from '../db/schema/catalogue';
import { licenses } from '../db/schema/licenses';
import { orders, purchases } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';

/** Where a buyer renews a license's updates: My Tools opens the renewal of that license. */
export const renewalUrlOf = (publicUrl: string, licenseId: string) =>
  `${publicUrl}/my-tools?renew=${encodeURIComponent(licenseId)}`;

/**
 * What renewing a license's updates would bring and cost (the update check's `renewal`, issue 65): the newest
 * release beyond its update period, the renewal price of its edition (or of its tool, without editions) in the
 * currency its purchase was paid in, and the renewal page. Null for a license without a purchase (a trial).
 */
export async function renewalOffer(
  ctx: AppContext,
  licenseId: string,
  release: { version: string },
): Promise<RenewalOffer | null> {
  const [row] = await ctx.db
    .select({
      currency: orders.currency,
      editionId: licenses.editionId,
      editionInr: toolEditions.renewalPriceInrPaise,
      editionUsd: toolEditions.renewalPriceUsdCents,
      toolInr: tools.renewalPriceInrPaise,
      toolUsd: tools.renewalPriceUsdCents,
    })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .innerJoin(orders, eq(orders.id, purchases.orderId))
    .innerJoin(tools, eq(tools.id, purchases.toolId))
    .leftJoin(toolEditions, eq(toolEditions.id, licenses.editionId))
    .where(eq(licenses.id, licenseId));
  if (!row) return null;
  const currency: Currency = row.currency;
  const [inr, usd] = row.editionId ? [row.editionInr, row.editionUsd] : [row.toolInr, row.toolUsd];
  return {
    version: release.version,
    price: currency === 'INR' ? inr : usd,
    currency,
    url: renewalUrlOf(ctx.config.publicUrl, licenseId),
  };
}
