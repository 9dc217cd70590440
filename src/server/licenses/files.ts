import type { LicenseEdition } from '../../shared/editions';
import {
  LICENSE_FILE_LIFETIME_DAYS,
  type LicenseFile,
  type LicenseFilePayload,
  type OfflineBinding,
} from '../../shared/licenses';
import type { SigningKeys } from './signing';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a license file is made from: the payload's own fields as they are, its times still as dates. */
type LicenseFileInput = Pick<
  LicenseFilePayload,
  'licenseKey' | 'username' | 'toolId' | 'toolName' | 'fingerprint' | 'activationId' | 'status'
> & {
  /** A trial's end: the file carries it, and its refreshBefore is never later. */
  expiresAt?: Date | null;
  /** A floating license's lease on this machine: the file never outlives it (decision 049). */
  leaseExpiresAt?: Date | null;
  /** The license's edition (null without editions) and what it unlocks: the tool reads them offline too. */
  edition: LicenseEdition | null;
  entitlements: string[];
  /** The end of its updates (null: every release): the tool may show it, and the feeds hold to it. */
  updatesUntil: string | null;
  /**
   * A computer activated without internet (offline.ts): the file answers its request and lasts until `until` (the
   * tool's offline period, already capped by the license's end) instead of 30 days.
   */
  offline?: OfflineBinding & { until: Date };
};

/**
 * The offline license file: the payload is UTF-8 JSON, carried as base64 so the signature covers exact bytes and
 * no JSON re-serialisation can change what was signed. A tool may start from it until `refreshBefore`, which for a
 * trial is never after the trial's end: a file cannot carry a tool past it offline. A computer activated without
 * internet gets the same file with an `offline` part (decision 061), so every tool that reads files reads it.
 */
export function issueLicenseFile(keys: SigningKeys, input: LicenseFileInput, now: Date): string {
  const lifetimeEnd = input.offline?.until.getTime() ?? now.getTime() + LICENSE_FILE_LIFETIME_DAYS * DAY_MS;
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
    ...(input.offline
      ? { offline: { nonce: input.offline.nonce, deactivationKey: input.offline.deactivationKey } }
      : {}),
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
