import { MIN_PRICE_SUBUNITS, usdPriceProblem } from '../shop/tools';
import { CommandError } from './framework';

/** Far above any tool, and well inside the integer column that stores subunits. */
const MAX_PRICE_SUBUNITS = 1_000_000_000;

const PRICE = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * A price as the operator types it (499, 7.99) into subunits, without floating point: positive, at most two
 * decimals, no separators (is "7,99" seven dollars ninety-nine, or 799?).
 */
export function parsePrice(typed: string, option: string): number {
  const text = typed.trim();
  if (/^-/.test(text)) throw new CommandError(`${option}: the price must be positive, got ${text}.`);
  const match = PRICE.exec(text);
  if (!match) {
    if (/^\d+\.\d{3,}$/.test(text)) {
      throw new CommandError(`${option}: at most two decimals (paise or cents), got ${text}.`);
    }
    throw new CommandError(
      `${option}: "${typed}" is not a price; write it like 499 or 7.99, without separators.`,
    );
  }
  const subunits = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (subunits <= 0) throw new CommandError(`${option}: the price must be positive, got ${text}.`);
  if (subunits < MIN_PRICE_SUBUNITS) {
    throw new CommandError(`${option}: at least 1.00, the smallest payment Razorpay accepts (got ${text}).`);
  }
  if (subunits > MAX_PRICE_SUBUNITS) throw new CommandError(`${option}: at most 10000000.00 (got ${text}).`);
  return subunits;
}

/** `--price-usd none` removes the tool's own USD price: USD buyers then pay the INR price / 75 (docs/product.md §9). */
export function parseUsdPrice(typed: string): number | null {
  return typed.trim().toLowerCase() === 'none' ? null : parsePrice(typed, '--price-usd');
}

/** Without its own USD price a tool costs INR / 75 in USD, which must still be a payable amount. */
export function assertPayableInUsd(prices: { priceInrPaise: number; priceUsdCents: number | null }): void {
  const problem = usdPriceProblem(prices);
  if (problem) throw new CommandError(problem);
}
