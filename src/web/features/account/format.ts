import { formatDate } from '../../lib/dates';

/** Dates and countries as the account page shows them: dates as the portal writes them, in the reader's time zone. */
export const formatWhen = (iso: string) => formatDate(iso, 'dayAndTime');

/**
 * A session's times: in India's time zone and saying so, as the emails about sign-ins and password changes give
 * them, so the list and the email name the same hour wherever the buyer reads them (issue 63).
 */
export const sessionTimes = (session: { signedInAt: string; lastUsedAt: string }) =>
  `Signed in ${formatDate(session.signedInAt, 'dayAndTimeInIndia')} · Last used ${formatDate(session.lastUsedAt, 'dayAndTimeInIndia')} (India time)`;

/** Made when a sign-in's country is first named, not when the page's code loads: Intl loads its data then. */
let countryNames: Intl.DisplayNames | null | undefined;

export function countryName(code: string | null): string {
  if (!code) return 'Unknown country';
  countryNames ??=
    typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;
  return countryNames?.of(code) ?? code;
}
