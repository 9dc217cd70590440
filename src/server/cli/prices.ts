import { parsePriceText, usdPriceProblem } from '../../shared/tool-rules';
import { CommandError } from './framework';

/** A price as the operator types it (499, 7.99) into subunits, by the catalogue's one price rule. */
export function parsePrice(typed: string, option: string): number {
  const parsed = parsePriceText(typed);
  if ('problem' in parsed) throw new CommandError(`${option}: ${parsed.problem}, got "${typed.trim()}".`);
  return parsed.subunits;
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
