import { usdCentsFromInrPaise } from './money';

/**
 * The catalogue's rules for a tool, one definition for the admin command line and the dashboard: the same limits
 * and the same words for what is wrong. Problems are phrases ("at most two decimals (paise or cents)") that each
 * front end frames: the command line prefixes the option, the dashboard makes a sentence of it.
 */

export const TOOL_TEXT_MAX = { name: 120, description: 5000, icon: 300 } as const;

/** How many machines one license may be activated on at a time, and the limit a new tool gets. */
export const ACTIVATION_LIMIT_RANGE = { min: 1, max: 100 } as const;
export const DEFAULT_ACTIVATION_LIMIT = 2;

/**
 * How a tool's licenses count machines (decision 049): `per-device` activations hold a seat until deactivated;
 * `floating` ones hold a lease that the tool renews with heartbeats and that frees itself when the machine goes
 * quiet. Either way the tool's activation limit is how many machines may hold a seat at once.
 */
export const LICENSE_MODELS = ['per-device', 'floating'] as const;
export type LicenseModel = (typeof LICENSE_MODELS)[number];
/** A floating tool's heartbeat interval, in minutes: the default, and the range the operator may set. */
export const DEFAULT_HEARTBEAT_MINUTES = 10;
const HEARTBEAT_MINUTES_RANGE = { min: 1, max: 24 * 60 } as const;

/** A typed heartbeat interval ("10m", "10", "2h") in whole minutes, or undefined when it is not one in range. */
export function parseHeartbeatText(typed: string): number | undefined {
  const match = /^(\d{1,4})\s*(m|min|h)?$/i.exec(typed.trim());
  if (!match) return undefined;
  const minutes = Number(match[1]) * (match[2]?.toLowerCase() === 'h' ? 60 : 1);
  if (minutes < HEARTBEAT_MINUTES_RANGE.min || minutes > HEARTBEAT_MINUTES_RANGE.max) return undefined;
  return minutes;
}

export const HEARTBEAT_PROBLEM = `a heartbeat interval in whole minutes from ${HEARTBEAT_MINUTES_RANGE.min} to ${HEARTBEAT_MINUTES_RANGE.max} (like 10m or 2h)`;

/**
 * How long a computer activated without internet (issue 67, decision 061) may run on its signed response file: the
 * default, and the range the operator may set per tool. Nothing the server decides later (a refund, a suspension, a
 * seat taken back) reaches such a computer before its file ends, so the operator may shorten it; never longer than a
 * year, the longest an old signing key has to stay published for the files it signed.
 */
export const DEFAULT_OFFLINE_DAYS = 365;
const OFFLINE_DAYS_RANGE = { min: 1, max: 365 } as const;

/** A typed offline period in whole days, or undefined when it is not one in range. */
export function parseOfflineDaysText(typed: string): number | undefined {
  const text = typed.trim();
  const value = Number(text);
  return /^\d{1,3}$/.test(text) && value >= OFFLINE_DAYS_RANGE.min && value <= OFFLINE_DAYS_RANGE.max
    ? value
    : undefined;
}

export const OFFLINE_DAYS_PROBLEM = `a whole number of days from ${OFFLINE_DAYS_RANGE.min} to ${OFFLINE_DAYS_RANGE.max}`;

/** Razorpay's smallest payment is 100 subunits (₹1.00, $1.00); a cheaper tool could never be bought. */
export const MIN_PRICE_SUBUNITS = 100;
/** Far above any tool, and well inside the integer column that stores subunits. */
export const MAX_PRICE_SUBUNITS = 1_000_000_000;

/** The size column is a 32-bit integer; installers are far smaller. */
export const TOOL_FILE_MAX_BYTES = 2 ** 31 - 1;
export const FILE_TOO_LARGE = 'the file is larger than 2 GB';

const PRICE = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * A price as the operator types it (499, 7.99) into subunits, without floating point: positive, at most two
 * decimals, no separators (is "7,99" seven dollars ninety-nine, or 799?).
 */
export function parsePriceText(typed: string): { subunits: number } | { problem: string } {
  const text = typed.trim();
  if (/^-/.test(text)) return { problem: 'the price must be positive' };
  const match = PRICE.exec(text);
  if (!match) {
    if (/^\d+\.\d{3,}$/.test(text)) return { problem: 'at most two decimals (paise or cents)' };
    return { problem: 'not a price; write it like 499 or 7.99, without separators' };
  }
  const subunits = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (subunits <= 0) return { problem: 'the price must be positive' };
  if (subunits < MIN_PRICE_SUBUNITS)
    return { problem: 'at least 1.00, the smallest payment Razorpay accepts' };
  if (subunits > MAX_PRICE_SUBUNITS) return { problem: 'at most 10000000.00' };
  return { subunits };
}

/** Why a tool without its own USD price could not be bought in USD, or undefined when it can. */
export function usdPriceProblem(prices: {
  priceInrPaise: number;
  priceUsdCents: number | null;
}): string | undefined {
  if (prices.priceUsdCents !== null) return undefined;
  const derived = usdCentsFromInrPaise(prices.priceInrPaise);
  if (derived >= MIN_PRICE_SUBUNITS) return undefined;
  return `Without its own USD price, USD buyers pay the INR price / 75 = $${(derived / 100).toFixed(2)}, below Razorpay's 1.00 minimum; give a USD price.`;
}

/** Whether a typed activation limit is a whole number in range. */
export function parseActivationLimitText(typed: string): number | undefined {
  const text = typed.trim();
  const value = Number(text);
  if (!/^\d{1,3}$/.test(text) || value < ACTIVATION_LIMIT_RANGE.min || value > ACTIVATION_LIMIT_RANGE.max)
    return undefined;
  return value;
}

export const ACTIVATION_LIMIT_PROBLEM = `a whole number from ${ACTIVATION_LIMIT_RANGE.min} to ${ACTIVATION_LIMIT_RANGE.max}`;

/** A phrase as a sentence, for a form's field error. */
export const asSentence = (problem: string) => `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`;
