import { createPublicKey, verify } from 'node:crypto';
import type { Edition } from './entitlements';

/** What the server signs (docs/license-api.md, "Offline license file"). */
export type LicenseFilePayload = {
  v: 1;
  licenseKey: string | null;
  username: string | null;
  toolId: string;
  toolName: string;
  fingerprint: string;
  activationId: string;
  status: 'active' | 'trial' | 'suspended' | 'revoked';
  issuedAt: string;
  refreshBefore: string;
  /** A trial's end; `refreshBefore` is never later. */
  expiresAt?: string;
  /** The license's edition (null without editions) and its entitlements; absent in files from before editions. */
  edition?: Edition | null;
  entitlements?: string[];
  /** The end of the license's updates (null: every release); absent in files from before update periods. */
  updatesUntil?: string | null;
};

/** One entry of `GET /api/licenses/public-keys`: a key id and an SPKI PEM. Ship these inside the tool. */
export type PublicKey = { kid: string; publicKey: string };

export type LicenseFileCheck =
  | { valid: true; payload: LicenseFilePayload }
  | {
      valid: false;
      reason:
        | 'malformed'
        | 'unknown-key'
        | 'bad-signature'
        | 'wrong-fingerprint'
        | 'wrong-tool'
        | 'not-active'
        | 'expired';
      /** Present once the signature has verified: what the file says, even though it cannot be used now. */
      payload?: LicenseFilePayload;
    };

/** Strict base64: a character that a lenient decoder would skip must not slip through as "the same" bytes. */
function decodeBase64(value: unknown): Buffer | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  const bytes = Buffer.from(value, 'base64');
  return bytes.toString('base64') === value ? bytes : undefined;
}

function isPayload(value: unknown): value is LicenseFilePayload {
  if (!value || typeof value !== 'object') return false;
  const p = value as Record<string, unknown>;
  return (
    p.v === 1 &&
    typeof p.toolId === 'string' &&
    typeof p.fingerprint === 'string' &&
    typeof p.status === 'string' &&
    typeof p.issuedAt === 'string' &&
    typeof p.refreshBefore === 'string' &&
    !Number.isNaN(Date.parse(p.refreshBefore))
  );
}

/**
 * Checks an offline license file with the published public keys: the Ed25519 signature over the payload bytes,
 * then that it names this machine (and this tool, when given), is active, and has not passed `refreshBefore`.
 */
export function verifyLicenseFile(
  text: string,
  publicKeys: readonly PublicKey[],
  options: { fingerprint: string; now?: Date; toolId?: string },
): LicenseFileCheck {
  let file: Record<string, unknown>;
  try {
    file = JSON.parse(text);
  } catch {
    return { valid: false, reason: 'malformed' };
  }
  if (!file || typeof file !== 'object' || file.alg !== 'ed25519' || typeof file.kid !== 'string') {
    return { valid: false, reason: 'malformed' };
  }
  const payloadBytes = decodeBase64(file.payload);
  const signature = decodeBase64(file.signature);
  if (!payloadBytes || !signature) return { valid: false, reason: 'malformed' };

  const key = publicKeys.find((candidate) => candidate.kid === file.kid);
  if (!key) return { valid: false, reason: 'unknown-key' };
  let signed: boolean;
  try {
    signed = verify(null, payloadBytes, createPublicKey(key.publicKey), signature);
  } catch {
    signed = false;
  }
  if (!signed) return { valid: false, reason: 'bad-signature' };

  let payload: unknown;
  try {
    payload = JSON.parse(payloadBytes.toString('utf8'));
  } catch {
    return { valid: false, reason: 'malformed' };
  }
  if (!isPayload(payload)) return { valid: false, reason: 'malformed' };
  if (payload.fingerprint !== options.fingerprint)
    return { valid: false, reason: 'wrong-fingerprint', payload };
  if (options.toolId !== undefined && payload.toolId !== options.toolId) {
    return { valid: false, reason: 'wrong-tool', payload };
  }
  // A trial's file is as good as an active one until its refreshBefore, which is never after the trial's end.
  if (payload.status !== 'active' && payload.status !== 'trial')
    return { valid: false, reason: 'not-active', payload };
  const now = options.now ?? new Date();
  if (now.getTime() >= Date.parse(payload.refreshBefore)) return { valid: false, reason: 'expired', payload };
  return { valid: true, payload };
}
