import type { Currency } from './constants';
import { orderAmountSubunits } from './money';

/**
 * Updates for a period (decision 059): lifetime validity never changes, but a tool or edition may include a number
 * of months of new releases, renewed at a lower price. One set of rules for the command line, the dashboard, the
 * server and My Tools.
 */

export const UPDATE_MONTHS_RANGE = { min: 1, max: 120 } as const;
/** A renewal is offered from this many days before the end of updates. */
export const RENEWAL_OFFER_DAYS = 60;
/** Paid within this many days after the end, a renewal still extends from the end; later, from the day it is paid. */
export const RENEWAL_GRACE_DAYS = 30;
/** The reminders: this many days before the end, and on the day it ends. */
export const RENEWAL_REMINDER_DAYS = [30, 7] as const;

export const UPDATES_FOR_PROBLEM = `"lifetime", or a number of months from ${UPDATE_MONTHS_RANGE.min} to ${UPDATE_MONTHS_RANGE.max} (like 12m or 1y)`;

/** A typed period ("12m", "12", "1y", "lifetime") as months, null for lifetime; undefined when it is not one. */
export function parseUpdatesFor(typed: string): number | null | undefined {
  const text = typed.trim().toLowerCase();
  if (text === 'lifetime') return null;
  const match = /^(\d{1,3})\s*(m|mo|months?|y|years?)?$/.exec(text);
  if (!match) return undefined;
  const months = Number(match[1]) * (match[2]?.startsWith('y') ? 12 : 1);
  return months >= UPDATE_MONTHS_RANGE.min && months <= UPDATE_MONTHS_RANGE.max ? months : undefined;
}

/** What a period reads as: "12 months", "lifetime". */
export const periodText = (months: number | null) =>
  months === null ? 'lifetime' : `${months} ${months === 1 ? 'month' : 'months'}`;

/** A tool's or an edition's period with its renewal prices, as the catalogue stores them. */
export type UpdatePeriod = {
  updatesMonths: number | null;
  renewalPriceInrPaise: number | null;
  renewalPriceUsdCents: number | null;
};

/** Why a period could not be sold as given, or undefined: a number of months needs a renewal price in rupees. */
export function updatePeriodProblem(period: UpdatePeriod): string | undefined {
  if (period.updatesMonths !== null && period.renewalPriceInrPaise === null)
    return 'A period of updates needs a renewal price in INR (--renewal-price-inr).';
  return undefined;
}

/** What renewing costs one seat in the currency (USD without its own price: the INR price / 75, as for tools). */
export const renewalPriceSubunits = (period: UpdatePeriod, currency: Currency): number | null =>
  period.renewalPriceInrPaise === null
    ? null
    : orderAmountSubunits(
        { priceInrPaise: period.renewalPriceInrPaise, priceUsdCents: period.renewalPriceUsdCents },
        currency,
      );

/** `months` calendar months after `from` (the 31st of a month ends on the last day of a shorter one). */
export function addMonths(from: Date, months: number): Date {
  const to = new Date(from);
  const day = to.getUTCDate();
  to.setUTCDate(1);
  to.setUTCMonth(to.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() + 1, 0)).getUTCDate();
  to.setUTCDate(Math.min(day, lastDay));
  return to;
}

export const RENEWAL_MESSAGES = {
  licenseNotFound: 'License not found.',
  notActive: 'Only an active license can be renewed.',
  currency: (currency: string) =>
    `This license was bought in ${currency}: its renewal is paid in ${currency} too.`,
  lifetime: 'This license gets every update for life: there is nothing to renew.',
  notYet: (day: string) => `Renewal opens ${RENEWAL_OFFER_DAYS} days before the updates end, on ${day}.`,
} as const;
