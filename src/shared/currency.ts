import { CURRENCIES, type Currency } from './constants';

/**
 * Which currency a visitor sees first (docs/product.md §4): the server's location answer, a browser-side fallback when that
 * fails, and INR when even the fallback cannot run. The visitor can always switch afterwards.
 */

/** The country code used when the country is unknown (loopback, private network, no data). */
export const UNKNOWN_COUNTRY = 'OTHER';

/** `GET /api/get-location/` answer: an ISO 3166-1 alpha-2 code (or 'OTHER') and the currency to start with. */
export type LocationResponse = { country: string; currency: Currency };

/** What the browser knows about its user's locale, for the fallback rule. */
export type BrowserLocale = { languages: readonly string[]; timeZone: string | undefined };

const INDIA: LocationResponse = { country: 'IN', currency: 'INR' };
const ELSEWHERE: LocationResponse = { country: UNKNOWN_COUNTRY, currency: 'USD' };
const INDIAN_TIME_ZONES = new Set(['Asia/Kolkata', 'Asia/Calcutta']);
const COUNTRY_CODE = /^[A-Z]{2}$/;
/** Proxy placeholders that look like codes but name no country: Cloudflare's unknown (XX) and Tor (T1). */
const NOT_A_COUNTRY = new Set(['XX', 'T1']);

const isCurrency = (value: unknown): value is Currency =>
  typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);

/** Server rule: India pays in INR, every other known country in USD, an unknown country is OTHER in USD. */
export function currencyForCountry(country: string | null | undefined): LocationResponse {
  const code = country?.trim().toUpperCase() ?? '';
  if (code === 'IN') return { ...INDIA };
  if (!COUNTRY_CODE.test(code) || NOT_A_COUNTRY.has(code)) return { ...ELSEWHERE };
  return { country: code, currency: 'USD' };
}

/** Browser fallback: India when a language is *-IN or Hindi, or the clock is set to Indian time; else USD. */
export function fallbackCurrency(locale: BrowserLocale): LocationResponse {
  const indianLanguage = locale.languages.some((tag) => {
    const lower = tag.trim().toLowerCase();
    return lower.endsWith('-in') || lower === 'hi' || lower.startsWith('hi-');
  });
  const indianTime = locale.timeZone !== undefined && INDIAN_TIME_ZONES.has(locale.timeZone);
  return { ...(indianLanguage || indianTime ? INDIA : ELSEWHERE) };
}

/** Reads the running browser's languages and time zone; throws where there is no browser to ask. */
export function readBrowserLocale(): BrowserLocale {
  const { navigator } = globalThis;
  if (!navigator) throw new Error('no navigator to read the locale from');
  const languages = navigator.languages?.length ? navigator.languages : [navigator.language];
  return { languages, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone };
}

/** Interprets the location answer: IN is always INR; otherwise its currency, defaulting to USD and OTHER. */
export function currencyFromLocation(response: unknown): LocationResponse {
  if (typeof response !== 'object' || response === null)
    throw new Error('location response is not an object');
  const { country, currency } = response as Record<string, unknown>;
  const code = typeof country === 'string' && COUNTRY_CODE.test(country) ? country : undefined;
  if (code === 'IN') return { ...INDIA };
  return { country: code ?? UNKNOWN_COUNTRY, currency: isCurrency(currency) ? currency : 'USD' };
}

/**
 * docs/product.md §4 in full: ask the server; if that fails use the browser's locale; if that fails too, INR.
 * `fetchLocation` is the page's call to `GET /api/get-location/` (rejecting on any failure); `readLocale`
 * defaults to the real browser and exists so the rule can be tested without one.
 */
export async function detectCurrency(
  fetchLocation: () => Promise<unknown>,
  readLocale: () => BrowserLocale = readBrowserLocale,
): Promise<LocationResponse> {
  try {
    return currencyFromLocation(await fetchLocation());
  } catch {
    try {
      return fallbackCurrency(readLocale());
    } catch {
      return { ...INDIA };
    }
  }
}
