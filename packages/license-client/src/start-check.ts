import {
  type Credentials,
  LicenseApiError,
  type LicenseClient,
  type LicenseCode,
  LicenseServerUnreachableError,
} from './client';
import { type Licensed, licensedFrom } from './entitlements';
import { type PublicKey, verifyLicenseFile } from './license-file';

const DAY_MS = 24 * 60 * 60 * 1000;

export type StartCheckOptions = {
  client: LicenseClient;
  credentials: Credentials;
  fingerprint: string;
  /** The public keys shipped with the tool (GET /api/licenses/public-keys at build time). */
  publicKeys: readonly PublicKey[];
  /** The license file stored on this machine, if any. */
  storedFile: string | undefined;
  /** Stores a fresh file from the server, or removes it (undefined) when the server has revoked the license. */
  storeFile(text: string | undefined): void | Promise<void>;
  /** A valid file younger than this starts the tool without the network (default 7 days). */
  refreshAfterDays?: number;
  now?: Date;
};

export type StartDecision =
  /**
   * Start. `offline`: the server could not be asked; the file carries the tool until `refreshBefore`. `license`:
   * the edition and entitlements the signed file grants, for `license.hasEntitlement('ocr')`.
   */
  | { start: true; source: 'file' | 'server'; offline: boolean; refreshBefore: string; license: Licensed }
  /** Do not start: the server said why (`code`), or it is unreachable and no valid file is left (`offline`). */
  | { start: false; code?: LicenseCode; offline: boolean; reason: string };

/**
 * What a tool runs at start, offline first. A valid, recent license file starts the tool without the network.
 * An older file is refreshed from the server; if the server cannot be reached the tool keeps working until the
 * file's `refreshBefore`. Only a definite answer from the server (revoked, suspended, deactivated) stops it.
 */
export async function checkLicenseAtStart(options: StartCheckOptions): Promise<StartDecision> {
  const now = options.now ?? new Date();
  const toolId = options.client.toolId;
  const local = options.storedFile
    ? verifyLicenseFile(options.storedFile, options.publicKeys, {
        fingerprint: options.fingerprint,
        now,
        toolId,
      })
    : undefined;
  const refreshAfterMs = (options.refreshAfterDays ?? 7) * DAY_MS;
  if (local?.valid && now.getTime() - Date.parse(local.payload.issuedAt) < refreshAfterMs) {
    return {
      start: true,
      source: 'file',
      offline: false,
      refreshBefore: local.payload.refreshBefore,
      license: licensedFrom(local.payload),
    };
  }

  try {
    const answer = await options.client.validate(options.credentials, options.fingerprint);
    if (answer.valid && answer.licenseFile) {
      const fresh = verifyLicenseFile(answer.licenseFile, options.publicKeys, {
        fingerprint: options.fingerprint,
        now,
        toolId,
      });
      if (fresh.valid) {
        await options.storeFile(answer.licenseFile);
        return {
          start: true,
          source: 'server',
          offline: false,
          refreshBefore: fresh.payload.refreshBefore,
          license: licensedFrom(fresh.payload),
        };
      }
      return {
        start: false,
        offline: false,
        reason: `the server's license file did not verify (${fresh.reason})`,
      };
    }
    await options.storeFile(undefined);
    return {
      start: false,
      code: answer.code,
      offline: false,
      reason: `the license server answered ${answer.code}`,
    };
  } catch (error) {
    const unreachable =
      error instanceof LicenseServerUnreachableError ||
      (error instanceof LicenseApiError && error.status >= 429);
    if (!unreachable) throw error;
    if (local?.valid) {
      return {
        start: true,
        source: 'file',
        offline: true,
        refreshBefore: local.payload.refreshBefore,
        license: licensedFrom(local.payload),
      };
    }
    return {
      start: false,
      offline: true,
      reason: `the license server cannot be reached and no valid license file is stored (${local ? local.reason : 'none'})`,
    };
  }
}
