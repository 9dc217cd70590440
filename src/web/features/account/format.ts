import { formatDate } from '../../lib/dates';

/** Dates and countries as the account page shows them: dates as the portal writes them, in the reader's time zone. */
export const formatWhen = (iso: string) => formatDate(iso, 'dayAndTime');

/** Made when a sign-in's country is first named, not when the page's code loads: Intl loads its data then. */
let countryNames: Intl.DisplayNames | null | undefined;

export function countryName(code: string | null): string {
  if (!code) return 'Unknown country';
  countryNames ??=
    typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;
  return countryNames?.of(code) ?? code;
}
