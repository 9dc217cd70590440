import type { Currency } from '../../shared/constants';

/**
 * Amounts in words, as rule 46 (j) asks for the invoice total: rupees in the Indian system (thousand, lakh,
 * crore), dollars in the international one (thousand, million, billion), each with its subunit.
 */

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

/** 0–99 in words ("" for 0). */
function belowHundred(n: number): string {
  if (n < 20) return ONES[n] ?? '';
  const unit = n % 10;
  return `${TENS[Math.floor(n / 10)]}${unit ? `-${ONES[unit]}` : ''}`;
}

/** 0–999 in words ("" for 0). */
function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = belowHundred(n % 100);
  if (!hundreds) return rest;
  return `${ONES[hundreds]} Hundred${rest ? ` ${rest}` : ''}`;
}

/** A whole number in the Indian system: 12,34,56,789 → "Twelve Crore Thirty-Four Lakh …". */
export function indianNumberInWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a whole number: ${n}`);
  if (n === 0) return 'Zero';
  const parts: string[] = [];
  const crore = Math.floor(n / 10_000_000);
  if (crore) parts.push(`${indianNumberInWords(crore)} Crore`);
  const lakh = Math.floor((n % 10_000_000) / 100_000);
  if (lakh) parts.push(`${belowHundred(lakh)} Lakh`);
  const thousand = Math.floor((n % 100_000) / 1000);
  if (thousand) parts.push(`${belowHundred(thousand)} Thousand`);
  const rest = belowThousand(n % 1000);
  if (rest) parts.push(rest);
  return parts.join(' ');
}

/** A whole number in the international system: 1,234,567 → "One Million Two Hundred Thirty-Four Thousand …". */
export function internationalNumberInWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a whole number: ${n}`);
  if (n === 0) return 'Zero';
  const scales = ['', ' Thousand', ' Million', ' Billion', ' Trillion'];
  const parts: string[] = [];
  for (let rest = n, scale = 0; rest > 0; rest = Math.floor(rest / 1000), scale++) {
    const group = rest % 1000;
    if (group) parts.unshift(`${belowThousand(group)}${scales[scale]}`);
  }
  return parts.join(' ');
}

/** amountInWords(149950, 'INR') → "Rupees One Thousand Four Hundred Ninety-Nine and Fifty Paise Only". */
export function amountInWords(subunits: number, currency: Currency): string {
  if (!Number.isSafeInteger(subunits) || subunits < 0) throw new RangeError(`not an amount: ${subunits}`);
  const whole = Math.floor(subunits / 100);
  const fraction = subunits % 100;
  const [major, minor, words] =
    currency === 'INR'
      ? (['Rupees', 'Paise', indianNumberInWords] as const)
      : (['US Dollars', 'Cents', internationalNumberInWords] as const);
  const fractionPart = fraction ? ` and ${belowHundred(fraction)} ${minor}` : '';
  return `${major} ${words(whole)}${fractionPart} Only`;
}
