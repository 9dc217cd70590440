import { describe, expect, it } from 'vitest';
import { splitTax, supplyTypeFor } from './tax';

const sum = (split: ReturnType<typeof splitTax>) =>
  split.taxableValue + split.taxes.reduce((total, line) => total + line.amount, 0);

describe('supplyTypeFor', () => {
  const firm = { firmStateCode: '08', hasLut: true };
  it('tells intra-state, inter-state and export supplies apart', () => {
    expect(supplyTypeFor({ ...firm, billedInIndia: true, buyerStateCode: '08' })).toBe('intra-state');
    expect(supplyTypeFor({ ...firm, billedInIndia: true, buyerStateCode: '27' })).toBe('inter-state');
    expect(supplyTypeFor({ ...firm, billedInIndia: false, buyerStateCode: null })).toBe('export-lut');
    expect(supplyTypeFor({ ...firm, hasLut: false, billedInIndia: false, buyerStateCode: null })).toBe(
      'export-igst',
    );
  });

  it('takes an Indian buyer with no known state to be in the firm state', () => {
    expect(supplyTypeFor({ ...firm, billedInIndia: true, buyerStateCode: null })).toBe('intra-state');
  });
});

describe('splitTax', () => {
  it('works the 18 % back out of a round tax-inclusive price', () => {
    expect(splitTax(118_00, 'intra-state')).toEqual({
      supplyType: 'intra-state',
      taxableValue: 100_00,
      taxes: [
        { name: 'CGST', ratePercent: 9, amount: 9_00 },
        { name: 'SGST', ratePercent: 9, amount: 9_00 },
      ],
      total: 118_00,
    });
    expect(splitTax(118_00, 'inter-state').taxes).toEqual([{ name: 'IGST', ratePercent: 18, amount: 18_00 }]);
  });

  it('charges CGST equal to SGST, each 9 % of the taxable value to the paisa, which takes the odd paisa', () => {
    // ₹1,499: 1499 / 1.18 = 1270.338… → taxable ₹1,270.34, tax ₹228.66 split 114.33 + 114.33
    expect(splitTax(1499_00, 'intra-state')).toMatchObject({
      taxableValue: 1270_34,
      taxes: [{ amount: 114_33 }, { amount: 114_33 }],
    });
    // ₹499: 9 % of 422.881… is 38.059… → 38.06 each, taxable 499 − 76.12 = 422.88
    expect(splitTax(499_00, 'intra-state').taxableValue).toBe(422_88);
    // ₹1: 9 % of 0.847… is 0.076… → 0.08 each, and the taxable value 0.84 (not 0.07 + 0.08 on 0.85)
    expect(splitTax(1_00, 'intra-state')).toMatchObject({
      taxableValue: 84,
      taxes: [{ amount: 8 }, { amount: 8 }],
    });
    // ₹19.99: 9 % of 16.940… is 1.524… → 1.52 each, taxable 16.95 (not 1.52 + 1.53 on 16.94)
    expect(splitTax(19_99, 'intra-state').taxes.map((line) => line.amount)).toEqual([1_52, 1_52]);
  });

  it('adds up exactly to the amount paid for every awkward amount', () => {
    const amounts = [0, 1, 2, 3, 59, 99, 117, 118, 119, 7_99, 19_99, 999_99, 1_234_567, 99_999_999_99];
    for (let paise = 0; paise < 5_000; paise += 7) amounts.push(paise);
    for (const amount of amounts) {
      for (const type of ['intra-state', 'inter-state', 'export-lut', 'export-igst'] as const) {
        const split = splitTax(amount, type);
        expect(sum(split)).toBe(amount);
        for (const line of split.taxes) expect(Number.isInteger(line.amount) && line.amount >= 0).toBe(true);
        if (type === 'intra-state') {
          const [cgst, sgst] = split.taxes;
          expect(cgst?.amount).toBe(sgst?.amount);
          expect(Math.abs(split.taxableValue - (amount * 100) / 118)).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it('keeps the taxable value within half a paisa of the exact figure', () => {
    for (let amount = 1; amount < 20_000; amount += 13) {
      const exact = (amount * 100) / 118;
      expect(Math.abs(splitTax(amount, 'inter-state').taxableValue - exact)).toBeLessThanOrEqual(0.5);
    }
  });

  it('charges nothing on an export under a LUT and 18 % IGST without one', () => {
    expect(splitTax(19_99, 'export-lut')).toEqual({
      supplyType: 'export-lut',
      taxableValue: 19_99,
      taxes: [{ name: 'IGST', ratePercent: 0, amount: 0 }],
      total: 19_99,
    });
    // $19.99 / 1.18 = 16.940… → $16.94 + $3.05
    expect(splitTax(19_99, 'export-igst')).toMatchObject({
      taxableValue: 16_94,
      taxes: [{ name: 'IGST', ratePercent: 18, amount: 3_05 }],
    });
  });

  it('refuses what is not an amount in subunits', () => {
    expect(() => splitTax(10.5, 'intra-state')).toThrow(RangeError);
    expect(() => splitTax(-1, 'intra-state')).toThrow(RangeError);
  });
});
