import { eq } from 'drizzle-orm';
import type { Currency } from '../../shared/constants';
import type { RenewalOffer } from '../../shared/licenses';
import { licenses } from '../db/schema/licenses';
import type { AppContext } from '../kernel/context';
import { boughtLicenses } from '../licenses/lookup';

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
  const [row] = await boughtLicenses(ctx.db).where(eq(licenses.id, licenseId));
  if (!row) return null;
  const currency: Currency = row.currency;
  const period = row.edition ?? row.tool;
  return {
    version: release.version,
    price: currency === 'INR' ? period.renewalPriceInrPaise : period.renewalPriceUsdCents,
    currency,
    url: renewalUrlOf(ctx.config.publicUrl, licenseId),
  };
}
