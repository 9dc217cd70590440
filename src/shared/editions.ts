import type { Currency } from './constants';
import { orderAmountSubunits } from './money';
import { MIN_PRICE_SUBUNITS } from './tool-rules';

/**
 * Editions of a tool (decision 056): Standard below Pro, each with its prices, its device limit and its entitlements,
 * the short feature codes a license of it carries for the tool to check (`ocr`, `batch`). One set of rules for the
 * command line and the dashboard.
 */

export const EDITION_NAME_MAX = 40;

export const UPGRADE_MESSAGES = {
  licenseNotFound: 'License not found.',
  notActive: 'Only an active license can be upgraded.',
  currency: (currency: string) =>
    `This license was bought in ${currency}: its upgrade is paid in ${currency} too.`,
  noEdition: 'This license has no edition to upgrade from.',
  atTop: 'This license already has the top edition.',
  chooseHigher: 'Choose an edition above the one this license has.',
} as const;

export const EDITION_MESSAGES = {
  choose: (tool: string) => `Choose an edition of ${tool}.`,
  noEditions: (tool: string) => `${tool} has no editions.`,
} as const;
export const ENTITLEMENTS_MAX = 20;
/** An entitlement code: lower case, starting with a letter, up to 32 letters, digits, `-` and `_`. */
export const ENTITLEMENT_CODE = /^[a-z][a-z0-9_-]{0,31}$/;

/** An edition as the catalogue shows it (GET /api/alltools/): prices in rupees and dollars, like a tool's. */
export type ToolEditionView = {
  id: string;
  name: string;
  priceInr: number;
  /** null: USD buyers pay the INR price / 75, as for a tool without its own USD price. */
  priceUsd: number | null;
  entitlements: string[];
  /** Machines one license of the edition runs on at a time. */
  deviceLimit: number;
};

/** A license's edition as every license answer names it; null for a tool without editions. */
export type LicenseEdition = { id: string; name: string };

/**
 * What moving one seat from one edition to a higher one costs today: the difference of their list prices in the
 * license's currency (GST included, as every price in the shop), never below Razorpay's smallest charge.
 */
export function upgradePriceSubunits(
  from: { priceInrPaise: number; priceUsdCents: number | null },
  to: { priceInrPaise: number; priceUsdCents: number | null },
  currency: Currency,
): number {
  return Math.max(
    MIN_PRICE_SUBUNITS,
    orderAmountSubunits(to, currency) - orderAmountSubunits(from, currency),
  );
}
