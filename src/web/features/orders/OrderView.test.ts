import { describe, expect, it } from 'vitest';
import { refundedText } from './OrderView';

describe('the order page’s refund', () => {
  it('says what went back to the buyer and the credit note that credits it', () => {
    expect(refundedText({ amount: 119_920, creditNote: 'PCAC/26-27/00001' }, 'INR')).toBe(
      '₹1,199.20 · credit note PCAC/26-27/00001',
    );
    expect(refundedText({ amount: 1_999, creditNote: null }, 'USD')).toBe('$19.99');
  });
});
