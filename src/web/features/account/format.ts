/** Dates and countries as the account page shows them: in the reader's own locale and time zone. */

export const formatWhen = (iso: string) =>
  new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const countryNames =
  typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;

export const countryName = (code: string | null) =>
  code ? (countryNames?.of(code) ?? code) : 'Unknown country';
