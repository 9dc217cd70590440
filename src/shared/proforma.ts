import type { Currency } from './constants';
import { normaliseGstin } from './gstin';

/**
 * Buying as a firm (issue 68, docs/decisions/062-proforma-transfers-and-tds.md): a proforma invoice to pay against
 * (by Razorpay payment link or NEFT/RTGS), and TDS under s.194J deducted by the buyer. A proforma is a way to pay,
 * not a kind of order: any kind may be paid against one. No zod here: the billing dialog's chunk stays free of it
 * (the request's schema is in proforma-schemas.ts).
 */

/** How long a proforma holds its prices and coupon: it can be paid until the end of this many days. */
export const PROFORMA_VALID_DAYS = 15;
/** The buyer is reminded this many days before an unpaid proforma expires. */
export const PROFORMA_REMINDER_DAYS = 7;

/** TDS on a software licence (royalty, s.194J): 10 % of the value excluding GST, when GST is shown apart. */
export const TDS_RATE_PERCENT = 10;
export const TDS_SECTION = '194J';

/** The TDS a buyer deducts on a taxable value (subunits), rounded to the paisa, halves up. */
export function tdsOn(taxableValue: number): number {
  return Math.floor((2 * taxableValue * TDS_RATE_PERCENT + 100) / 200);
}

/**
 * PAN: five letters (the fourth says who holds it: P a person, C a company, F a firm, H a HUF, A an association,
 * T a trust, B a body of individuals, L a local authority, J an artificial juridical person, G a government), four
 * digits and a letter.
 */
export const PAN_PATTERN = /^[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z]$/;

export const PROFORMA_MESSAGES = {
  panRequired: 'Enter the PAN you will deduct TDS under',
  panInvalid: 'Please enter a valid 10-character PAN (for example AAPFU0939F)',
  panNotGstin: 'This PAN is not the one in your GSTIN',
  notEligible:
    'A proforma invoice is for a business buyer with a GSTIN, or for a team of seats; please add your GSTIN or choose more seats.',
  rupeesOnly: 'A proforma invoice and TDS are for orders in rupees (INR).',
  tdsNeedsBusiness: 'TDS can be declared by a business buyer with a GSTIN, or for a team of seats.',
  tooSmall: 'This order is too small to deduct TDS from (at least ₹1 must be left to pay).',
} as const;

/** The PAN inside a GSTIN (its characters 3 to 12), or '' when the GSTIN is not one. */
export const panOfGstin = (gstin: string): string => {
  const normalised = normaliseGstin(gstin);
  return normalised.length === 15 ? normalised.slice(2, 12) : '';
};

/** What is wrong with a PAN (normalised: no spaces, upper case) for a buyer billed with `gstin`, or null. */
export function panProblem(pan: string, gstin: string): string | null {
  if (!pan) return PROFORMA_MESSAGES.panRequired;
  if (!PAN_PATTERN.test(pan)) return PROFORMA_MESSAGES.panInvalid;
  const inGstin = panOfGstin(gstin);
  return inGstin && inGstin !== pan ? PROFORMA_MESSAGES.panNotGstin : null;
}

export const normalisePan = (value: string): string => value.replace(/\s+/g, '').toUpperCase();

/**
 * Who may ask for a proforma or declare TDS: a rupee order of a business buyer (a GSTIN), or of a team of seats
 * (more than one seat, or seats added to a team).
 */
export function mayPayAsFirm(order: {
  currency: Currency;
  gstin: string;
  seats: number;
  addsSeats: boolean;
}): boolean {
  return order.currency === 'INR' && (Boolean(order.gstin) || order.seats > 1 || order.addsSeats);
}

/** POST /api/checkout/proforma → the order made and the proforma that asks for its payment. */
export type ProformaAnswer = {
  orderId: string;
  proformaNumber: string;
  /** Subunits: the total, less TDS when the buyer deducts it. */
  amountDue: number;
  /** The Razorpay payment link for exactly `amountDue`; null when none could be made (then the bank details). */
  paymentLinkUrl: string | null;
  /** The last moment the proforma can be paid (ISO): the end of its 15th day, India time. */
  validUntil: string;
};

/** Where the order's proforma invoice is downloaded: its owner only, 404 for anyone else. */
export const proformaPath = (orderId: string) => `/api/orders/${orderId}/proforma.pdf`;

/** What the buyer's upload of its Form 16A answers. */
export type TdsCertificateAnswer = { message: string; fileName: string; uploadedAt: string };
