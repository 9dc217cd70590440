import { describe, expect, it } from 'vitest';
import { csvField, table } from './format';
import { CommandError } from './framework';
import { parseSince } from './lookup';
import { assertPayableInUsd, parsePrice, parseUsdPrice } from './prices';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CommandError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('parsePrice', () => {
  it('reads whole and two-decimal amounts into subunits without floating point', () => {
    expect(parsePrice('499', '--price-inr')).toBe(49_900);
    expect(parsePrice(' 7.99 ', '--price-usd')).toBe(799);
    expect(parsePrice('1499.5', '--price-inr')).toBe(149_950);
    expect(parsePrice('1.00', '--price-usd')).toBe(100);
  });

  it('refuses negative, zero, three-decimal, separated, too small and absurd prices', () => {
    expect(refusal(() => parsePrice('-5', '--price-inr'))).toMatch(/must be positive/);
    expect(refusal(() => parsePrice('0', '--price-inr'))).toMatch(/must be positive/);
    expect(refusal(() => parsePrice('7.999', '--price-usd'))).toMatch(/at most two decimals/);
    expect(refusal(() => parsePrice('7,99', '--price-usd'))).toMatch(/not a price/);
    expect(refusal(() => parsePrice('1e3', '--price-inr'))).toMatch(/not a price/);
    expect(refusal(() => parsePrice('0.99', '--price-usd'))).toMatch(/at least 1\.00/);
    expect(refusal(() => parsePrice('10000000.01', '--price-inr'))).toMatch(/at most/);
  });

  it('lets the USD price fall back to INR / 75 only while that is still payable', () => {
    expect(parseUsdPrice('none')).toBeNull();
    expect(() => assertPayableInUsd({ priceInrPaise: 7_500, priceUsdCents: null })).not.toThrow();
    expect(refusal(() => assertPayableInUsd({ priceInrPaise: 7_400, priceUsdCents: null }))).toMatch(
      /\$0\.99, below Razorpay's 1\.00 minimum/,
    );
  });
});

describe('output', () => {
  it('neutralises spreadsheet formulas and quotes CSV fields', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvField(null)).toBe('');
  });

  it('keeps table rows on one line whatever a customer typed', () => {
    const text = table(['NAME', 'NOTE'], [['Asha\nVerma\u001b[31m', 'ok']], 'none');
    expect(text.split('\n')).toEqual([
      'NAME             NOTE',
      '---------------  ----',
      'Asha Verma [31m  ok',
    ]);
  });
});

describe('parseSince', () => {
  const now = new Date('2026-06-10T12:00:00Z');
  it('reads ages and dates', () => {
    expect(parseSince('7d', now).toISOString()).toBe('2026-06-03T12:00:00.000Z');
    expect(parseSince('90m', now).toISOString()).toBe('2026-06-10T10:30:00.000Z');
    expect(parseSince('2026-06-01T09:30Z', now).toISOString()).toBe('2026-06-01T09:30:00.000Z');
    expect(refusal(() => parseSince('last week', now))).toMatch(/not a date or an age/);
  });
});
