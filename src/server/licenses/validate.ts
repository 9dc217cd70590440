import type { LicenseAnswer, LicenseCode } from '../../shared/licenses';
import type { AppContext } from '../kernel/context';
import { fileFor, granted, refusal, refused as refusedAnswer } from './answers';
import { leaseAnswer, leaseLapsed, leaseOf } from './leases';
import { credentialOf, findLicense, type LicenseRequest, type LicenseRow, withCredential } from './lookup';
import { type KnownLicense, rememberedFor } from './memory';

/**
 * A "last seen" older than this is written again; fresher ones are left alone, so a tool that starts many times a
 * day costs one write per activation every five minutes at most (docs/license-api.md).
 */
const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

/**
 * Validate's look-up through this instance's caches (docs/license-api.md, decision 016). Only the credential's
 * existence and the row are remembered; the password is checked on every call.
 */
async function lookUpRemembered(ctx: AppContext, request: LicenseRequest): Promise<KnownLicense | undefined> {
  const { licenses: known, unknownLicenses: unknown } = ctx.caches;
  const credential = credentialOf(request);
  if (unknown.get(credential)) return undefined;
  const key = `${credential}\n${request.fingerprint}`;
  let entry = known.get(key, rememberedFor(ctx.licenseChanges));
  if (!entry) {
    const generation = known.generation;
    const unknownGeneration = unknown.generation;
    const row =
      'licenseKey' in request
        ? await ctx.licenseLoaders.byKey.load(request)
        : await findLicense(ctx, request);
    if (!row) {
      unknown.set(credential, true, unknownGeneration);
      return undefined;
    }
    entry = { row };
    known.set(key, entry, generation);
  }
  return withCredential(ctx.dataSecrets, entry.row, request) ? entry : undefined;
}

/** What validate's checks found: a refusal, or this activated machine's remembered license. */
export type MachineCheck =
  | { valid: false; code: LicenseCode; reason?: string }
  | { valid: true; entry: KnownLicense; row: LicenseRow; activationId: string };

/**
 * Validate's checks, which the update check shares: the license named by the credential, for this tool, neither
 * revoked nor suspended, activated on this machine. Looked up through this instance's memory; "last seen" is written
 * at most once per `LAST_SEEN_RESOLUTION_MS`.
 */
export async function checkMachine(ctx: AppContext, request: LicenseRequest): Promise<MachineCheck> {
  const entry = await lookUpRemembered(ctx, request);
  const found = entry?.row;
  const now = ctx.clock.now();
  // Evaluated now, not when the row was remembered: a trial ends on time even when answered from memory.
  const refused = refusal(found, request.toolId, now);
  if (refused || !entry || !found) return refusedAnswer(refused ?? 'INVALID_KEY', found);
  if (!found.activationId) return { valid: false, code: 'NOT_ACTIVATED' };
  // Evaluated now too: a floating lease remembered while live stops here on time, as a trial does.
  if (leaseLapsed(found, now)) return { valid: false, code: 'NOT_ACTIVATED' };

  if (!found.lastSeenAt || now.getTime() - found.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    // Noted on the remembered row first, so concurrent calls for this machine write once.
    found.lastSeenAt = now;
    await ctx.licenseLoaders.lastSeen.load({ activationId: found.activationId, at: now });
  }
  return { valid: true, entry, row: found, activationId: found.activationId };
}

/**
 * Checks this machine's license; every start of every copy of a tool calls it, so it is answered from this
 * instance's memory when it can (at most `LICENSE_CACHE_TTL_MS` old). A VALID answer carries a license file signed
 * within that same second: the tool's offline refresh.
 */
export async function validateLicense(ctx: AppContext, request: LicenseRequest): Promise<LicenseAnswer> {
  const checked = await checkMachine(ctx, request);
  if (!checked.valid) return checked;
  const { entry, row, activationId } = checked;
  entry.licenseFile ??= fileFor(ctx, row, {
    id: activationId,
    fingerprint: request.fingerprint,
    ...leaseOf(row),
  });
  return { valid: true, ...granted(row), ...leaseAnswer(row, leaseOf(row)), licenseFile: entry.licenseFile };
}
