import type { LicenseEdition } from '../../shared/editions';
import {
  LICENSE_FILE_LIFETIME_DAYS,
  type LicenseFile,
  type LicenseFilePayload,
  type LicenseStatus,
} from '../../shared/licenses';
import type { SigningKeys } from './signing';

const DAY_MS = 24 * 60 * 60 * 1000;

type LicenseFileInput = {
  licenseKey: string | null;
  username: string | null;
  toolId: string;
  toolName: string;
  fingerprint: string;
  activationId: string;
  status: LicenseStatus;
  /** A trial's end: the file carries it, and its refreshBefore is never later. */
  expiresAt?: Date | null;
  /** A floating license's lease on this machine: the file never outlives it (decision 049). */
  leaseExpiresAt?: Date | null;
  /** The license's edition (null without editions) and what it unlocks: the tool reads them offline too. */
  edition: LicenseEdition | null;
  entitlements: string[];
  /** The end of its updates (null: every release): the tool may show it, and the feeds hold to it. */
  updatesUntil: string | null;
};

/**
 * The offline license file: the payload is UTF-8 JSON, carried as base64 so the signature covers exact bytes and
 * no JSON re-serialisation can change what was signed. A tool may start from it until `refreshBefore`, which for a
 * trial is never after the trial's end: a file cannot carry a tool past it offline.
 */
export function issueLicenseFile(keys: SigningKeys, input: LicenseFileInput, now: Date): string {
  const lifetimeEnd = now.getTime() + LICENSE_FILE_LIFETIME_DAYS * DAY_MS;
  const refreshBefore = Math.min(
    lifetimeEnd,
    input.expiresAt?.getTime() ?? lifetimeEnd,
    input.leaseExpiresAt?.getTime() ?? lifetimeEnd,
  );
  const payload: LicenseFilePayload = {
    v: 1,
    licenseKey: input.licenseKey,
    username: input.username,
    toolId: input.toolId,
    toolName: input.toolName,
    fingerprint: input.fingerprint,
    activationId: input.activationId,
    status: input.status,
    issuedAt: now.toISOString(),
    refreshBefore: new Date(refreshBefore).toISOString(),
    edition: input.edition,
    entitlements: input.entitlements,
    updatesUntil: input.updatesUntil,
    ...(input.expiresAt ? { expiresAt: input.expiresAt.toISOString() } : {}),
    ...(input.leaseExpiresAt ? { leaseExpiresAt: input.leaseExpiresAt.toISOString() } : {}),
  };
  const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
  const file: LicenseFile = {
    alg: 'ed25519',
    kid: keys.kid,
    payload: bytes.toString('base64'),
    signature: keys.sign(bytes).toString('base64'),
  };
  return JSON.stringify(file);
}
