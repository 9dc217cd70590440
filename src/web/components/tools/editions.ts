import type { Currency } from '../../../shared/constants';
import type { ToolEditionView } from '../../../shared/editions';
import { displayPrice } from '../../../shared/money';

/**
 * A tool's editions as the shop shows them (decision 056), the catalogue's card and the checkout alike: an edition's
 * price in the currency shown, by the catalogue's rule for a tool's (its own USD price, else the INR price / 75).
 */
export const editionPrice = (edition: ToolEditionView, currency: Currency): number =>
  displayPrice({ priceINR: edition.priceInr, priceUSD: edition.priceUsd }, currency);

/** What an edition gives: 'Up to 2 devices', and the entitlements it unlocks ('Up to 3 devices · ocr, batch'). */
export function editionFeatures(edition: ToolEditionView): string {
  const devices = `Up to ${edition.deviceLimit} ${edition.deviceLimit === 1 ? 'device' : 'devices'}`;
  return edition.entitlements.length ? `${devices} · ${edition.entitlements.join(', ')}` : devices;
}
