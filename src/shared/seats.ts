/**
 * How many seats one order buys (issue 54): 1 to 50, 1 unless the buyer says otherwise. The browser's billing
 * dialog checks the number with `parseSeats` before asking the server; the server's schema holds the same range.
 * No zod here: the billing dialog's chunk stays free of it.
 */
export const MAX_SEATS = 50;

export const SEATS_MESSAGE = `Between 1 and ${MAX_SEATS} seats`;

/** The whole number of seats typed, or null when it is not one from 1 to MAX_SEATS. */
export function parseSeats(typed: string): number | null {
  const text = typed.trim();
  if (!/^\d{1,2}$/.test(text)) return null;
  const seats = Number(text);
  return seats >= 1 && seats <= MAX_SEATS ? seats : null;
}
