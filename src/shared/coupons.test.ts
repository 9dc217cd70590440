import { describe, expect, it } from 'vitest';
import {
  COUPON_MESSAGES,
  couponCodeSchema,
  couponDiscount,
  couponEnd,
  couponStart,
  newCouponSchema,
} from './coupons';

const percent = (value: number) => ({ percent: value, amountInrPaise: null, amountUsdCents: null });
const fixed = (inr: number, usd: number | null = null) => ({
  percent: null,
  amountInrPaise: inr,
  amountUsdCents: usd,
});

describe('couponDiscount', () => {
  it('rounds a percentage to the subunit, halves up', () => {
    expect(couponDiscount(999_00, percent(20), 'INR')).toBe(199_80);
    expect(couponDiscount(14_99, percent(20), 'USD')).toBe(3_00); // 2.998 → 3.00
    expect(couponDiscount(1_25, percent(10), 'INR')).toBe(13); // 12.5 → 13
  });

  it('makes a 100 % code free, and never takes another below ₹1 / $1', () => {
    expect(couponDiscount(999_00, percent(100), 'INR')).toBe(999_00);
    expect(couponDiscount(999_00, percent(99.99), 'INR')).toBe(998_00);
    expect(couponDiscount(999_00, fixed(5000_00), 'INR')).toBe(998_00);
    expect(couponDiscount(1_00, fixed(50_00), 'INR')).toBe(0);
  });

  it('takes a fixed code’s USD amount, else its INR amount / 75', () => {
    expect(couponDiscount(14_99, fixed(150_00, 2_50), 'USD')).toBe(2_50);
    expect(couponDiscount(14_99, fixed(150_00), 'USD')).toBe(2_00);
    expect(couponDiscount(999_00, fixed(150_00, 2_50), 'INR')).toBe(150_00);
  });
});

describe('codes and terms', () => {
  it('matches a code in any case and refuses anything but letters, digits and -', () => {
    expect(couponCodeSchema.parse(' diwali-20 ')).toBe('DIWALI-20');
    for (const bad of ['', 'with space', 'under_score', 'x'.repeat(33)])
      expect(couponCodeSchema.safeParse(bad).error?.issues[0]?.message).toBe(COUPON_MESSAGES.invalid);
  });

  it('reads a date alone as whole days in India', () => {
    expect(new Date(couponStart('2026-12-01')).toISOString()).toBe('2026-11-30T18:30:00.000Z');
    expect(new Date(couponEnd('2026-12-31')).toISOString()).toBe('2026-12-31T18:30:00.000Z');
    const reversed = newCouponSchema.safeParse({
      code: 'X',
      percent: 5,
      startsAt: '2026-12-02',
      endsAt: '2026-12-01',
    });
    expect(reversed.error?.issues[0]?.message).toBe('The end must be after the start');
  });
});
