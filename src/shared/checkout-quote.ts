import { z } from 'zod';
import { BILLING_MESSAGES, gstinProblem } from './billing';
import { CURRENCIES, type Currency } from './constants';
import { isKnownCountry } from './countries';
import { couponCodeSchema } from './coupons';
import { normaliseGstin } from './gstin';
import { findIndianState } from './indian-states';
import { singleLineText } from './input-policy';
import { MAX_LENGTH } from './limits';
import { MAX_SEATS, SEATS_MESSAGE } from './seats';

/**
 * POST /api/checkout/quote (docs/decisions/044-order-summary-and-order-page.md): what an order would cost this
 * buyer, priced by the server's one pricing function, for the billing dialog's order summary. Amounts in subunits.
 */

/** Seats of one order (decision 051): more than one makes a team license. The range and its words: shared/seats.ts. */
export const QUOTE_MESSAGES = {
  seats: SEATS_MESSAGE,
} as const;

/** The number of seats an order buys, 1 to 50, 1 when not given: the quote and create-payment take the same. */
export const seatsField = z
  .number({ error: QUOTE_MESSAGES.seats })
  .int({ error: QUOTE_MESSAGES.seats })
  .min(1, { error: QUOTE_MESSAGES.seats })
  .max(MAX_SEATS, { error: QUOTE_MESSAGES.seats })
  .default(1);

const optionalText = (max: number) =>
  z.preprocess((value) => (value === null ? undefined : value), singleLineText(max).optional().default(''));

/**
 * What an order is for, the same for the quote and the payment: a tool (a new license, or seats for its team), or
 * a license to upgrade or renew; one of them at a time.
 */
export function checkOrderTarget(
  body: { toolId?: string; teamLicenseId?: string; upgradeLicenseId?: string; renewLicenseId?: string },
  check: z.core.$RefinementCtx,
): void {
  if (!body.toolId && !body.upgradeLicenseId && !body.renewLicenseId)
    check.addIssue({ code: 'custom', path: ['toolId'], message: 'Unknown tool' });
  const licenses = [body.teamLicenseId, body.upgradeLicenseId, body.renewLicenseId].filter(Boolean);
  if (licenses.length > 1)
    check.addIssue({
      code: 'custom',
      path: [body.renewLicenseId ? 'renewLicenseId' : 'upgradeLicenseId'],
      message: 'An order adds seats, upgrades a license or renews its updates: one at a time',
    });
}

/** What an order is besides its tool and billing: the quote and create-payment (shop-schemas.ts) take the same. */
export const orderChoiceFields = {
  /** Optional; the server judges and applies it (an empty field is no code). */
  couponCode: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    couponCodeSchema.optional(),
  ),
  /** How many seats (1–50, decision 051); more than one makes a team license. */
  seats: seatsField,
  /** "Add seats": the team license (owned by the buyer) the seats are added to, instead of a new license. */
  teamLicenseId: z.uuid({ error: 'Unknown team license' }).optional(),
  /** The edition bought, of a tool with editions (decision 056). */
  editionId: z.uuid({ error: 'Unknown edition' }).optional(),
  /** An upgrade: the buyer's license that moves to the edition `editionId` (then no toolId is needed). */
  upgradeLicenseId: z.uuid({ error: 'Unknown license' }).optional(),
  /** A renewal: the buyer's license whose updates are renewed for another period (no toolId needed). */
  renewLicenseId: z.uuid({ error: 'Unknown license' }).optional(),
  /** The buyer deducts TDS under s.194J (issue 68): 10 % of the taxable value is left out of what is due. */
  tds: z.boolean().optional().default(false),
};

export const checkoutQuoteSchema = z
  .strictObject({
    /** Every kind but an upgrade and a renewal names the tool (refined below). */
    toolId: z.uuid({ error: 'Unknown tool' }).optional(),
    currency: z.enum(CURRENCIES),
    /** The Indian state billed (decides CGST + SGST or IGST); empty while the buyer has not chosen one. */
    state: optionalText(MAX_LENGTH.billingState),
    /** Beside the issue's fields: an order in another currency is billed to a country (export, or India). */
    country: optionalText(MAX_LENGTH.billingCountry),
    gstin: optionalText(MAX_LENGTH.gstin).transform(normaliseGstin),
    ...orderChoiceFields,
  })
  .superRefine((body, check) => {
    checkOrderTarget(body, check);
    const state = body.state.trim();
    if (state && !findIndianState(state))
      check.addIssue({ code: 'custom', path: ['state'], message: BILLING_MESSAGES.stateUnknown });
    const country = body.country.trim();
    if (country && !isKnownCountry(country))
      check.addIssue({ code: 'custom', path: ['country'], message: BILLING_MESSAGES.countryUnknown });
    const problem = body.gstin ? gstinProblem(body.gstin) : null;
    if (problem) check.addIssue({ code: 'custom', path: ['gstin'], message: problem });
    else if (body.gstin && state && findIndianState(state)?.gstCode !== body.gstin.slice(0, 2))
      check.addIssue({ code: 'custom', path: ['gstin'], message: BILLING_MESSAGES.gstinStateMismatch });
  });
export type CheckoutQuoteRequest = z.input<typeof checkoutQuoteSchema>;

export type QuoteTaxLine = { name: 'CGST' | 'SGST' | 'IGST'; rate: number; amount: number };

/** The price's figures (subunits) from the one pricing function: what a quote gives and an order keeps. */
export type PriceFigures = {
  listPrice: number;
  discount: number;
  taxableValue: number;
  taxes: QuoteTaxLine[];
  total: number;
  /**
   * TDS the buyer deducts (s.194J, 10 % of the taxable value, issue 68): a quote's when it was asked with `tds`, an
   * order's when it was placed so; else 0.
   */
  tds: number;
  /** What the payment asks for: the total less TDS. The invoice still shows the total. */
  amountDue: number;
  currency: Currency;
};

export type CheckoutQuote = PriceFigures & {
  /** The code asked about: applied, or not with the reason (a normal answer, not an error). */
  coupon: { code: string; applied: boolean; message: string } | null;
};
