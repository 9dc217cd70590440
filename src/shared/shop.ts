import type { Currency } from './constants';
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

export type { BillingDetails, CreatePaymentRequest, VerifyPaymentRequest } from './shop-schemas';

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

/** GET /api/payments/config/: which checkout script the tools page loads (Razorpay's, or the local emulator's). */
export type PaymentsConfigResponse = { keyId: string; checkoutScript: string; testMode: boolean };

export type StatusResponse = { status: 'success' | 'error'; message: string };
