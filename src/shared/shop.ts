import { z } from 'zod';
import { CURRENCIES, type Currency } from './constants';
import { findIndianState } from './indian-states';
import { isValidGstin, normaliseGstin } from './money';

/**
 * The shop's API contract (spec §3, §7), shared by the server and the browser.
 * Money in responses is in major units (rupees, dollars) as the spec's browser expects; the database keeps subunits.
 */

export type Device = 'Windows' | 'macOS';

/** GET /api/alltools/ → Tool[] */
export type Tool = {
  _id: string;
  name: string;
  description: string;
  /** null: no device (the card's button then says "Purchase"). */
  device: Device | null;
  /** The INR price, kept for the spec's `price` fallback. */
  price: number;
  priceINR: number;
  priceUSD: number | null;
  comingSoon: boolean;
  purchased: boolean;
  icon: string | null;
};

/** GET /api/my-tools/ → PurchasedTool[] */
export type PurchasedTool = {
  _id: string;
  name: string;
  description: string;
  icon: string | null;
  /** Which build was bought: two catalogue entries can share a name (Windows and macOS). */
  device: Device | null;
  /** ISO timestamp, or null when unknown (shown as N/A). */
  purchaseDate: string | null;
};

export const currencySchema = z.enum(CURRENCIES);

/** Spec §5 billing messages, shown by the billing modal and returned by the server in fieldErrors. */
export const BILLING_MESSAGES = {
  addressRequired: 'Address is required',
  stateRequired: 'State is required',
  stateUnknown: 'Please choose a state from the list',
  countryRequired: 'Country is required',
  gstinInvalid: 'Please enter a valid 15-character GSTIN',
  gstinStateMismatch: 'This GSTIN is registered in a different state',
} as const;

export const BILLING_COUNTRY_INDIA = 'India';

export type BillingValues = {
  address?: string;
  state?: string;
  country?: string;
  gstin?: string;
  currency: Currency;
};
export type BillingFieldErrors = Partial<Record<'address' | 'state' | 'country' | 'gstin', string>>;

/**
 * Spec §5 billing rule, one per field (empty result: valid). INR orders need an address and a state from the
 * official list (the country is India); other currencies need a country and ask no address or state.
 * A GSTIN is optional; when given it must be well formed with the right check character, and for an INR order
 * its state code must be the chosen state's.
 */
export function validateBilling(values: BillingValues): BillingFieldErrors {
  const errors: BillingFieldErrors = {};
  const gstin = normaliseGstin(values.gstin ?? '');
  if (values.currency === 'INR') {
    const stateName = (values.state ?? '').trim();
    if (!(values.address ?? '').trim()) errors.address = BILLING_MESSAGES.addressRequired;
    if (!stateName) errors.state = BILLING_MESSAGES.stateRequired;
    else if (!findIndianState(stateName)) errors.state = BILLING_MESSAGES.stateUnknown;
    if (gstin && !isValidGstin(gstin)) errors.gstin = BILLING_MESSAGES.gstinInvalid;
    else if (gstin && !errors.state && findIndianState(stateName)?.gstCode !== gstin.slice(0, 2))
      errors.gstin = BILLING_MESSAGES.gstinStateMismatch;
  } else {
    if (!(values.country ?? '').trim()) errors.country = BILLING_MESSAGES.countryRequired;
    if (gstin && !isValidGstin(gstin)) errors.gstin = BILLING_MESSAGES.gstinInvalid;
  }
  return errors;
}

/** The billing details as an order stores them: trimmed, India for INR, no address or state otherwise. */
export function normaliseBilling(values: BillingValues): Required<BillingValues> {
  const gstin = normaliseGstin(values.gstin ?? '');
  if (values.currency === 'INR') {
    return {
      address: (values.address ?? '').trim(),
      state: (values.state ?? '').trim(),
      country: BILLING_COUNTRY_INDIA,
      gstin,
      currency: values.currency,
    };
  }
  return { address: '', state: '', country: (values.country ?? '').trim(), gstin, currency: values.currency };
}

export const billingDetailsSchema = z
  .strictObject({
    address: z.string().max(300).optional().default(''),
    state: z.string().max(80).optional().default(''),
    country: z.string().max(80).optional().default(''),
    gstin: z.string().max(20).optional().default(''),
    currency: currencySchema,
  })
  .superRefine((values, check) => {
    for (const [field, message] of Object.entries(validateBilling(values))) {
      check.addIssue({ code: 'custom', path: [field], message });
    }
  })
  .transform(normaliseBilling);
export type BillingDetails = z.output<typeof billingDetailsSchema>;

/** POST /api/create-payment/ body. `toolName` and `price` are accepted for the spec's browser but ignored. */
export const createPaymentSchema = z
  .strictObject({
    toolId: z.uuid({ error: 'Unknown tool' }),
    toolName: z.string().max(200).optional(),
    price: z.number().optional(),
    currency: currencySchema,
    billingDetails: billingDetailsSchema,
  })
  .refine((body) => body.billingDetails.currency === body.currency, {
    path: ['billingDetails', 'currency'],
    message: 'The billing currency must match the order currency',
  });
export type CreatePaymentRequest = z.input<typeof createPaymentSchema>;

export type CreatePaymentResponse = {
  status: 'success';
  order_id: string;
  razorpay_key_id: string;
  /** In subunits (paise, cents), as Razorpay's checkout takes it. */
  amount: number;
  currency: Currency;
  name: string;
  email: string;
  phone: string;
  message: string;
};

/** POST /api/verify-payment/ body. */
export const verifyPaymentSchema = z.strictObject({
  razorpay_order_id: z.string().min(1).max(100),
  razorpay_payment_id: z.string().min(1).max(100),
  razorpay_signature: z.string().min(1).max(200),
  toolId: z.uuid().optional(),
  currency: currencySchema.optional(),
});
export type VerifyPaymentRequest = z.input<typeof verifyPaymentSchema>;

/** POST /api/send-tool-credentials/ body. */
export const sendCredentialsSchema = z.strictObject({ toolId: z.uuid({ error: 'Unknown tool' }) });

export type StatusResponse = { status: 'success' | 'error'; message: string };
