import type { BillingValues } from './billing';
import { type Currency, USD_TO_INR_FALLBACK_RATE } from './constants';

/**
 * Money rules shared by the server and the browser. The database and Razorpay work in integer subunits
 * (paise, cents); the API and the page show major units (rupees, dollars). Every conversion goes through here.
 */

export const CURRENCY_SYMBOLS: Record<Currency, string> = { INR: '₹', USD: '$' };

/** Major units → subunits, rounded to the nearest subunit (19.99 → 1999). */
export function toSubunits(major: number): number {
  return Math.round(major * 100);
}

/** Subunits → major units (1999 → 19.99). */
export function fromSubunits(subunits: number): number {
  return subunits / 100;
}

/** The USD price when a tool has none of its own: the INR price at the product document's fallback rate, to the cent. */
export function usdCentsFromInrPaise(paise: number): number {
  return Math.round(paise / USD_TO_INR_FALLBACK_RATE);
}

/** What an order for this catalogue entry costs, in subunits of `currency`. The server's only price rule. */
export function orderAmountSubunits(
  prices: { priceInrPaise: number; priceUsdCents: number | null },
  currency: Currency,
): number {
  if (currency === 'INR') return prices.priceInrPaise;
  return prices.priceUsdCents ?? usdCentsFromInrPaise(prices.priceInrPaise);
}

/**
 * docs/product.md §7 price rule for the browser, in major units: INR uses priceINR, else price, else 0; USD uses priceUSD,
 * else price (the INR price; priceINR when price is absent) / 75, else 0. Rounded to the cent, so it agrees with what the server charges.
 */
export function displayPrice(
  tool: { price?: number | null; priceINR?: number | null; priceUSD?: number | null },
  currency: Currency,
): number {
  if (currency === 'INR') return fromSubunits(toSubunits(tool.priceINR ?? tool.price ?? 0));
  if (tool.priceUSD != null) return fromSubunits(toSubunits(tool.priceUSD));
  const inr = tool.price ?? tool.priceINR;
  if (inr != null) return fromSubunits(usdCentsFromInrPaise(toSubunits(inr)));
  return 0;
}

/** Groups digits: Indian style for INR (1,00,000), western for USD (100,000). */
function groupDigits(digits: string, currency: Currency): string {
  if (currency === 'USD' || digits.length <= 3) return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const lastThree = digits.slice(-3);
  const rest = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${rest},${lastThree}`;
}

/**
 * Formats an amount in major units with its symbol and always two decimals: '₹1,499.00', '$19.99'.
 * Done by hand rather than Intl so the prerendered HTML and the browser agree to the character.
 */
export function formatPrice(amount: number, currency: Currency): string {
  const subunits = toSubunits(amount);
  const sign = subunits < 0 ? '-' : '';
  const absolute = Math.abs(subunits);
  const whole = Math.floor(absolute / 100).toString();
  const fraction = (absolute % 100).toString().padStart(2, '0');
  return `${sign}${CURRENCY_SYMBOLS[currency]}${groupDigits(whole, currency)}.${fraction}`;
}

/** Formats an amount in subunits (as stored on an order): formatSubunits(149900, 'INR') → '₹1,499.00'. */
export function formatSubunits(subunits: number, currency: Currency): string {
  return formatPrice(fromSubunits(subunits), currency);
}

// ── Billing details ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * The billing fields as the checkout's form names them, in its order; the dashboard shows an order's billing with
 * them. Here rather than in shop.ts, which the dashboard does not load (its country and state lists are large).
 */
export const BILLING_FIELD_LABELS = {
  currency: 'Currency',
  address: 'Address',
  state: 'State',
  country: 'Country',
  gstin: 'GSTIN',
} as const satisfies Record<keyof BillingValues, string>;
