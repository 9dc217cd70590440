import { DEFAULT_DIAL_CODE } from './constants';

/** One entry of the signup form's dial-code picker (docs/product.md §3: code, country, flag). */
export type CountryCode = {
  /** Dial code with its plus sign, e.g. "+91". */
  code: string;
  country: string;
  flag: string;
  /** ISO 3166-1 alpha-2; tells apart the countries that share a dial code (+1). */
  iso: string;
};

/**
 * The 30 dial codes the signup form offers (docs/product.md §3, §9). India is first and the default; +1 is listed for both
 * the United States and Canada. No code is a prefix of another, so a stored "+<code><number>" splits unambiguously.
 */
export const COUNTRY_CODES: readonly CountryCode[] = [
  { code: '+91', country: 'India', flag: '🇮🇳', iso: 'IN' },
  { code: '+1', country: 'United States', flag: '🇺🇸', iso: 'US' },
  { code: '+1', country: 'Canada', flag: '🇨🇦', iso: 'CA' },
  { code: '+44', country: 'United Kingdom', flag: '🇬🇧', iso: 'GB' },
  { code: '+61', country: 'Australia', flag: '🇦🇺', iso: 'AU' },
  { code: '+971', country: 'United Arab Emirates', flag: '🇦🇪', iso: 'AE' },
  { code: '+65', country: 'Singapore', flag: '🇸🇬', iso: 'SG' },
  { code: '+49', country: 'Germany', flag: '🇩🇪', iso: 'DE' },
  { code: '+33', country: 'France', flag: '🇫🇷', iso: 'FR' },
  { code: '+81', country: 'Japan', flag: '🇯🇵', iso: 'JP' },
  { code: '+86', country: 'China', flag: '🇨🇳', iso: 'CN' },
  { code: '+966', country: 'Saudi Arabia', flag: '🇸🇦', iso: 'SA' },
  { code: '+974', country: 'Qatar', flag: '🇶🇦', iso: 'QA' },
  { code: '+965', country: 'Kuwait', flag: '🇰🇼', iso: 'KW' },
  { code: '+968', country: 'Oman', flag: '🇴🇲', iso: 'OM' },
  { code: '+973', country: 'Bahrain', flag: '🇧🇭', iso: 'BH' },
  { code: '+977', country: 'Nepal', flag: '🇳🇵', iso: 'NP' },
  { code: '+880', country: 'Bangladesh', flag: '🇧🇩', iso: 'BD' },
  { code: '+94', country: 'Sri Lanka', flag: '🇱🇰', iso: 'LK' },
  { code: '+92', country: 'Pakistan', flag: '🇵🇰', iso: 'PK' },
  { code: '+60', country: 'Malaysia', flag: '🇲🇾', iso: 'MY' },
  { code: '+62', country: 'Indonesia', flag: '🇮🇩', iso: 'ID' },
  { code: '+852', country: 'Hong Kong', flag: '🇭🇰', iso: 'HK' },
  { code: '+64', country: 'New Zealand', flag: '🇳🇿', iso: 'NZ' },
  { code: '+27', country: 'South Africa', flag: '🇿🇦', iso: 'ZA' },
  { code: '+31', country: 'Netherlands', flag: '🇳🇱', iso: 'NL' },
  { code: '+39', country: 'Italy', flag: '🇮🇹', iso: 'IT' },
  { code: '+34', country: 'Spain', flag: '🇪🇸', iso: 'ES' },
  { code: '+41', country: 'Switzerland', flag: '🇨🇭', iso: 'CH' },
  { code: '+353', country: 'Ireland', flag: '🇮🇪', iso: 'IE' },
];

export const DEFAULT_COUNTRY: CountryCode =
  COUNTRY_CODES.find((entry) => entry.code === DEFAULT_DIAL_CODE) ?? (COUNTRY_CODES[0] as CountryCode);

/** Entries whose country, dial code or ISO code contains the query (case-insensitive; "91" finds "+91"). */
export function searchCountryCodes(query: string): CountryCode[] {
  const q = query.trim().toLowerCase().replace(/^\+/, '');
  if (!q) return [...COUNTRY_CODES];
  return COUNTRY_CODES.filter(
    (entry) =>
      entry.country.toLowerCase().includes(q) ||
      entry.code.slice(1).startsWith(q) ||
      entry.iso.toLowerCase() === q,
  );
}

/** Splits a stored "+<dial code><number>" into its parts; dialCode is '' when no listed code matches. */
export function splitPhone(phone: string): { dialCode: string; number: string } {
  const entry = COUNTRY_CODES.find((candidate) => phone.startsWith(candidate.code));
  return entry
    ? { dialCode: entry.code, number: phone.slice(entry.code.length) }
    : { dialCode: '', number: phone };
}
