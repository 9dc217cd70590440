import type { AppError } from '../http/errors';
import type { LocalCounter, LocalRateLimiter } from '../http/rate-limit';

/** The license API's bodies are small; a request declaring more is refused before it is read. */
export const LICENSE_API_BODY_LIMIT = 4 * 1024;

const MINUTE = 60 * 1000;
const PER_KEY = 60;
const PER_ADDRESS = 120;

/** A credential's key in the limits: the license key, or a credentials tool's username. */
export function limitKeyOf(credentials: { licenseKey?: string; username?: string }): string {
  return credentials.licenseKey
    ? `key:${credentials.licenseKey}`
    : `user:${credentials.username?.toLowerCase()}`;
}

/**
 * The counters a repeated caller was last counted on, kept with what it repeats (the fast lane's remembered answer)
 * so its next call is counted without looking its keys up.
 */
export type KeptCounters = { address?: string; byAddress?: LocalCounter; byKey?: LocalCounter };

/**
 * Counts one call against the caller's address and its credential (docs/license-api.md); throws 429 with
 * Retry-After when either is spent. Counted in this instance's memory, not the database: validate must stay cheap
 * (decision 016). `kept` carries the counters of this caller's previous call, and is updated.
 */
export function consumeLicenseLimits(
  limiter: LocalRateLimiter,
  address: string,
  limitKey: string,
  kept: KeptCounters = {},
): void {
  if (!(kept.address === address && kept.byAddress && limiter.consumeOn(kept.byAddress))) {
    kept.byAddress = limiter.consume({ key: `address:${address}`, limit: PER_ADDRESS, windowMs: MINUTE });
    kept.address = address;
  }
  if (!(kept.byKey && limiter.consumeOn(kept.byKey))) {
    kept.byKey = limiter.consume({ key: limitKey, limit: PER_KEY, windowMs: MINUTE });
  }
}

/** The license API's error body: the same shape as every answer, with `valid: false`. */
export function licenseErrorBody(error: AppError) {
  return {
    valid: false,
    code: error.code,
    message: error.message,
    ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
  };
}
