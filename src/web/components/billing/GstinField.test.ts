import { describe, expect, it } from 'vitest';
import { validateBilling } from '../../../shared/billing';
import { isValidGstin } from '../../../shared/gstin';
import { findIndianState } from '../../../shared/indian-states';
import { GSTIN_EXAMPLE } from './GstinField';

describe('the GSTIN example in the billing dialog', () => {
  it('passes the shared GSTIN check, check character included', () => {
    expect(isValidGstin(GSTIN_EXAMPLE)).toBe(true);
    // One character off and the check character no longer matches.
    expect(isValidGstin(`${GSTIN_EXAMPLE.slice(0, 14)}5`)).toBe(false);
  });

  it('is a Rajasthan number, accepted with Rajasthan as the billing state', () => {
    expect(GSTIN_EXAMPLE.slice(0, 2)).toBe(findIndianState('Rajasthan')?.gstCode);
    const errors = validateBilling({
      address: '14 Civil Lines, Ajmer Road',
      state: 'Rajasthan',
      country: 'India',
      gstin: GSTIN_EXAMPLE,
      currency: 'INR',
    });
    expect(errors).toEqual({});
  });
});
