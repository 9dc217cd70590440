import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, validateBilling } from './billing';
import { gstinCheckCharacter, isValidGstin } from './gstin';
import { INDIAN_STATES } from './indian-states';
import {
  displayPrice,
  formatPrice,
  formatSubunits,
  orderAmountSubunits,
  usdCentsFromInrPaise,
} from './money';
import { billingDetailsSchema } from './shop-schemas';

describe('formatPrice', () => {
  it('shows the symbol and two decimals', () => {
    expect(formatPrice(1499, 'INR')).toBe('₹1,499.00');
    expect(formatPrice(19.99, 'USD')).toBe('$19.99');
    expect(formatPrice(0, 'USD')).toBe('$0.00');
    expect(formatPrice(5, 'INR')).toBe('₹5.00');
  });

  it('groups rupees the Indian way and dollars the western way', () => {
    expect(formatPrice(123456.5, 'INR')).toBe('₹1,23,456.50');
    expect(formatPrice(12345678, 'INR')).toBe('₹1,23,45,678.00');
    expect(formatPrice(1234567, 'USD')).toBe('$1,234,567.00');
  });

  it('formats subunits as stored on an order', () => {
    expect(formatSubunits(149900, 'INR')).toBe('₹1,499.00');
    expect(formatSubunits(1999, 'USD')).toBe('$19.99');
  });
});

describe('prices', () => {
  it('charges the USD price when there is one, else the INR price at 75 per dollar', () => {
    expect(orderAmountSubunits({ priceInrPaise: 149900, priceUsdCents: 1999 }, 'USD')).toBe(1999);
    expect(orderAmountSubunits({ priceInrPaise: 149900, priceUsdCents: null }, 'USD')).toBe(1999);
    expect(orderAmountSubunits({ priceInrPaise: 149900, priceUsdCents: 1999 }, 'INR')).toBe(149900);
    expect(usdCentsFromInrPaise(100000)).toBe(1333);
  });

  it('follows the spec rule in the browser and agrees with the server', () => {
    expect(displayPrice({ price: 1499, priceINR: 1499, priceUSD: 19.99 }, 'INR')).toBe(1499);
    expect(displayPrice({ price: 1499, priceINR: 1499, priceUSD: 24 }, 'USD')).toBe(24);
    expect(displayPrice({ price: 1499, priceINR: 1499, priceUSD: null }, 'USD')).toBe(19.99);
    expect(displayPrice({ price: 999 }, 'INR')).toBe(999);
    expect(displayPrice({}, 'INR')).toBe(0);
    expect(displayPrice({}, 'USD')).toBe(0);
  });
});

describe('GSTIN', () => {
  it('accepts real GSTINs and computes their check character', () => {
    for (const gstin of ['27AAPFU0939F1ZV', '29AAGCB7383J1Z4', '33AAACH7409R1Z8', '24AAACC1206D1ZM']) {
      expect(isValidGstin(gstin)).toBe(true);
      expect(gstinCheckCharacter(gstin.slice(0, 14))).toBe(gstin.charAt(14));
    }
  });

  it('refuses a wrong check character or layout', () => {
    expect(isValidGstin('27AAPFU0939F1ZW')).toBe(false);
    expect(isValidGstin('27AAPFU0939F1YV')).toBe(false);
    expect(isValidGstin('2AAPFU0939F1ZV')).toBe(false);
  });
});

describe('Indian states', () => {
  it('lists 28 states and 8 union territories with unique GST codes', () => {
    expect(INDIAN_STATES.filter((s) => s.kind === 'state')).toHaveLength(28);
    expect(INDIAN_STATES.filter((s) => s.kind === 'union territory')).toHaveLength(8);
    expect(new Set(INDIAN_STATES.map((s) => s.gstCode)).size).toBe(36);
    expect(INDIAN_STATES.find((s) => s.name === 'Rajasthan')?.gstCode).toBe('08');
  });
});

describe('validateBilling', () => {
  it('asks an INR order for an address and a state from the list', () => {
    expect(validateBilling({ currency: 'INR' })).toEqual({
      address: BILLING_MESSAGES.addressRequired,
      state: BILLING_MESSAGES.stateRequired,
    });
    expect(validateBilling({ currency: 'INR', address: '  ', state: 'Atlantis' })).toEqual({
      address: BILLING_MESSAGES.addressRequired,
      state: BILLING_MESSAGES.stateUnknown,
    });
    expect(validateBilling({ currency: 'INR', address: 'MI Road', state: 'Rajasthan' })).toEqual({});
  });

  it('asks other currencies only for a country', () => {
    expect(validateBilling({ currency: 'USD' })).toEqual({ country: BILLING_MESSAGES.countryRequired });
    expect(validateBilling({ currency: 'USD', country: 'Canada' })).toEqual({});
  });

  it("takes only a country from the billing form's list, spelled as the list spells it", () => {
    expect(validateBilling({ currency: 'USD', country: 'Atlantis' })).toEqual({
      country: BILLING_MESSAGES.countryUnknown,
    });
    expect(validateBilling({ currency: 'USD', country: 'canada' })).toEqual({
      country: BILLING_MESSAGES.countryUnknown,
    });
    expect(validateBilling({ currency: 'USD', country: " Côte d'Ivoire " })).toEqual({});
  });

  it('checks a GSTIN when one is given, including its state', () => {
    const base = { currency: 'INR' as const, address: 'Bandra', state: 'Maharashtra' };
    expect(validateBilling({ ...base, gstin: '27aapfu0939f1zv' })).toEqual({});
    // Well formed but a typing mistake somewhere: the message says the check character does not match.
    expect(validateBilling({ ...base, gstin: '27AAPFU0939F1ZW' })).toEqual({
      gstin: BILLING_MESSAGES.gstinCheckCharacter,
    });
    expect(BILLING_MESSAGES.gstinCheckCharacter).toMatch(/last character.*typing mistake/);
    expect(validateBilling({ ...base, gstin: '27AAPFU0939' })).toEqual({
      gstin: BILLING_MESSAGES.gstinInvalid,
    });
    expect(validateBilling({ ...base, state: 'Karnataka', gstin: '27AAPFU0939F1ZV' })).toEqual({
      gstin: BILLING_MESSAGES.gstinStateMismatch,
    });
  });

  it('normalises what an order stores', () => {
    expect(
      billingDetailsSchema.parse({
        currency: 'INR',
        address: ' MI Road ',
        state: 'Rajasthan',
        country: 'Nowhere',
        gstin: '',
      }),
    ).toEqual({ currency: 'INR', address: 'MI Road', state: 'Rajasthan', country: 'India', gstin: '' });
    expect(
      billingDetailsSchema.parse({ currency: 'USD', address: 'x', state: 'y', country: ' Canada ' }),
    ).toEqual({ currency: 'USD', address: '', state: '', country: 'Canada', gstin: '' });
  });
});
