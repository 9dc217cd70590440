import type { Currency } from './constants';
import { isKnownCountry } from './countries';
import { GSTIN_PATTERN, isValidGstin, normaliseGstin } from './gstin';
import { findIndianState } from './indian-states';

/**
 * The buyer's billing details (docs/product.md §5): the rule the form and the server both apply, and the form in
 * which an order stores them. Apart from `shop.ts`, so that pages that only list tools do not load the country and
 * state lists.
 */

/** The billing form's messages (docs/product.md §5), for the form and the server's field errors alike. */
export const BILLING_MESSAGES = {
  addressRequired: 'Address is required',
  stateRequired: 'State is required',
  stateUnknown: 'Please choose a state from the list',
  countryRequired: 'Country is required',
  countryUnknown: 'Please choose a country from the list',
  gstinInvalid: 'Please enter a valid 15-character GSTIN',
  gstinCheckCharacter:
    'The last character of this GSTIN does not match the other 14: please check it for a typing mistake',
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
 * What is wrong with a normalised GSTIN, or null: not the form of one at all, or (issue 63) well formed with a check
 * character that does not match, which is a typing mistake the buyer can look for. The form and every schema use it.
 */
export function gstinProblem(gstin: string): string | null {
  if (!GSTIN_PATTERN.test(gstin)) return BILLING_MESSAGES.gstinInvalid;
  return isValidGstin(gstin) ? null : BILLING_MESSAGES.gstinCheckCharacter;
}

/**
 * The billing rule (docs/product.md §5), one message per field (empty result: valid). INR orders need an address
 * and a state from the official list (the country is India); other currencies need a country from the form's list
 * and ask no address or state.
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
    const problem = gstin ? gstinProblem(gstin) : null;
    if (problem) errors.gstin = problem;
    else if (gstin && !errors.state && findIndianState(stateName)?.gstCode !== gstin.slice(0, 2))
      errors.gstin = BILLING_MESSAGES.gstinStateMismatch;
  } else {
    const country = (values.country ?? '').trim();
    if (!country) errors.country = BILLING_MESSAGES.countryRequired;
    else if (!isKnownCountry(country)) errors.country = BILLING_MESSAGES.countryUnknown;
    const problem = gstin ? gstinProblem(gstin) : null;
    if (problem) errors.gstin = problem;
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
