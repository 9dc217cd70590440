import type { LocalRateLimiter } from '../http/rate-limit';
import type { FieldErrors } from '../kernel/domain-error';

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
 * Counts one call against the caller's address and its credential (docs/license-api.md); throws 429 with
 * Retry-After when either is spent. Counted in this instance's memory, not the database: validate must stay cheap
 * (decision 016).
 */
export function consumeLicenseLimits(limiter: LocalRateLimiter, address: string, limitKey: string): void {
  limiter.consume({ key: `address:${address}`, limit: PER_ADDRESS, windowMs: MINUTE });
  limiter.consume({ key: limitKey, limit: PER_KEY, windowMs: MINUTE });
}

/** The license API's error body: the same shape as every answer, with `valid: false`. */
export function licenseErrorBody(error: { code: string; message: string; fieldErrors?: FieldErrors }) {
  return {
    valid: false,
    code: error.code,
    message: error.message,
    ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
  };
}
