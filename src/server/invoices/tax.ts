/**
 * GST on a tax-inclusive price (docs/product.md §12): the catalogue price is what the buyer pays, so the taxable
 * value is worked back out of it. All amounts are integer subunits (paise, cents); the lines always add up to the
 * amount paid, to the subunit.
 */

export const GST_RATE_PERCENT = 18;

export type SupplyType =
  /** Buyer in the firm's state: CGST + SGST. */
  | 'intra-state'
  /** Buyer in another Indian state: IGST. */
  | 'inter-state'
  /** Buyer outside India, LUT on file: zero-rated export, no tax. */
  | 'export-lut'
  /** Buyer outside India without a LUT: IGST is charged and can be claimed back as a refund by the firm. */
  | 'export-igst';

export type TaxLine = { name: 'CGST' | 'SGST' | 'IGST'; ratePercent: number; amount: number };

export type TaxSplit = {
  supplyType: SupplyType;
  taxableValue: number;
  taxes: TaxLine[];
  total: number;
};

export const EXPORT_ENDORSEMENT =
  'SUPPLY MEANT FOR EXPORT UNDER LETTER OF UNDERTAKING WITHOUT PAYMENT OF INTEGRATED TAX';

/**
 * Which kind of supply this is, from where the buyer is billed. An Indian buyer without a known state is taken to
 * be in the firm's state (IGST Act s. 12(2)(b): the supplier's location when the recipient's address is unknown).
 */
export function supplyTypeFor(input: {
  billedInIndia: boolean;
  buyerStateCode: string | null;
  firmStateCode: string;
  hasLut: boolean;
}): SupplyType {
  if (!input.billedInIndia) return input.hasLut ? 'export-lut' : 'export-igst';
  if (input.buyerStateCode === null || input.buyerStateCode === input.firmStateCode) return 'intra-state';
  return 'inter-state';
}

/** Rounds numerator / denominator to the nearest integer, halves up, in exact integer arithmetic. */
function divideRounded(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** Splits a tax-inclusive amount (subunits) into its taxable value and tax lines. */
export function splitTax(total: number, supplyType: SupplyType): TaxSplit {
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError(`not an amount in subunits: ${total}`);
  if (supplyType === 'export-lut')
    return { supplyType, taxableValue: total, taxes: [{ name: 'IGST', ratePercent: 0, amount: 0 }], total };

  if (supplyType === 'intra-state') {
    // CGST and SGST are equal, each half the rate on the taxable value rounded to the paisa, as the invoice states
    // them; the taxable value is what is left, so an odd paisa sits there and the lines still add up to the total.
    const half = GST_RATE_PERCENT / 2;
    const each = divideRounded(total * half, 100 + GST_RATE_PERCENT);
    return {
      supplyType,
      taxableValue: total - 2 * each,
      taxes: [
        { name: 'CGST', ratePercent: half, amount: each },
        { name: 'SGST', ratePercent: half, amount: each },
      ],
      total,
    };
  }
  const taxableValue = divideRounded(total * 100, 100 + GST_RATE_PERCENT);
  const tax = total - taxableValue;
  return {
    supplyType,
    taxableValue,
    taxes: [{ name: 'IGST', ratePercent: GST_RATE_PERCENT, amount: tax }],
    total,
  };
}
