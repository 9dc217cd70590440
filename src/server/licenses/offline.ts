import { createHmac } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { offlineRequestContentSchema } from '../../shared/license-schemas';
import { LICENSE_MESSAGES, type LicenseAnswer } from '../../shared/licenses';
import { licenseFileName, OFFLINE_MESSAGES, OFFLINE_REQUEST_PREFIX } from '../../shared/offline-activation';
import type { DbOrTx } from '../db';
import { licenseActivations, licenses } from '../db/schema/licenses';
import type { AppContext } from '../kernel/context';
import type { DataSecrets } from '../kernel/data-secrets';
import { DomainError } from '../kernel/domain-error';
import { type Actor, recordAudit } from '../operator/audit';
import { takeSeat } from './activate';
import { lockDeactivationsLeft } from './allowance';
import { fileFor, seatLimit } from './answers';
import { isFloating } from './leases';
import { findLicenseById, type LicenseRow } from './lookup';
import { forgetLicenses } from './memory';
import { licenseKeyHashes, revealLicenseKey } from './secrets-at-rest';

/**
 * Activating a computer that never goes online (issue 67, docs/decisions/061-offline-activation.md). The tool writes
 * a request (the tool, the machine's fingerprint and name, a random nonce; no key), the buyer brings it to My Tools
 * (or emails it to the operator), and the answer is the license file, bound to that fingerprint and nonce and valid
 * for the tool's offline period. The seat is taken by activate's own `takeSeat`, under the same lock. The file
 * carries a key only this activation is given, with which the tool makes its deactivation code when it gives the
 * seat up; the server keeps only that code's keyed hash.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** What the deactivation key is derived for (with the data key, from the activation and the request's nonce). */
const DEACTIVATION_KEY_PURPOSE = 'offline-deactivation-key';
/** The keyed hash a deactivation code is kept and found by. */
const CODE_HASH_PURPOSE = 'license_activations.offline_code_hash';
/** Crockford's base32, as shared/offline-activation.ts reads a code back. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A request as the reference client's `createOfflineRequest` writes it, decoded. */
type OfflineRequest = ReturnType<typeof offlineRequestContentSchema.parse>;

const requestRefused = (message: string) =>
  new DomainError('validation_error', message, { fieldErrors: { request: message } });

/**
 * Reads a request: the prefix, then strict base64url (a character a lenient decoder would skip is damage, not the
 * same request) of UTF-8 JSON with exactly the fields the client writes, each by the license API's own rules.
 */
export function parseOfflineRequest(text: string): OfflineRequest {
  const line = text.trim();
  if (!line.startsWith(OFFLINE_REQUEST_PREFIX)) throw requestRefused(OFFLINE_MESSAGES.requestNotOne);
  const encoded = line.slice(OFFLINE_REQUEST_PREFIX.length);
  const bytes = Buffer.from(encoded, 'base64url');
  if (encoded.length === 0 || bytes.toString('base64url') !== encoded) {
    throw requestRefused(OFFLINE_MESSAGES.requestDamaged);
  }
  let content: unknown;
  try {
    content = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw requestRefused(OFFLINE_MESSAGES.requestDamaged);
  }
  const parsed = offlineRequestContentSchema.safeParse(content);
  if (!parsed.success) throw requestRefused(OFFLINE_MESSAGES.requestDamaged);
  return parsed.data;
}

/**
 * The key an offline activation's deactivation code is made with: derived from the activation and its request's
 * nonce with the data key, like update tokens (update-tokens.ts), so it is never stored and the same request
 * uploaded twice gets the same key (and code).
 */
function deactivationKeyOf(secrets: DataSecrets, activationId: string, nonce: string): string {
  const derived = secrets.lookupHash(DEACTIVATION_KEY_PURPOSE, `${activationId}\n${nonce}`);
  return Buffer.from(derived, 'hex').toString('base64url');
}

/**
 * The deactivation code the tool shows when it gives its seat up, as the reference client makes it
 * (packages/license-client/src/offline.ts; its tests hold the two to the same code): HMAC-SHA256 with the response's
 * key over the activation id, its first 80 bits in Crockford's base32, without the dashes the tool shows.
 */
export function deactivationCodeOf(deactivationKey: string, activationId: string): string {
  const mac = createHmac('sha256', Buffer.from(deactivationKey, 'base64url'))
    .update(`pinkcity offline deactivation\n${activationId}`)
    .digest();
  let bits = 0;
  let value = 0;
  let code = '';
  for (const byte of mac.subarray(0, 10)) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      code += CODE_ALPHABET[(value >> bits) & 31];
    }
  }
  return code;
}

/** The end of a response file made now: the tool's offline period, never past the license's own end (a trial's). */
function offlineEnd(row: LicenseRow, now: Date): Date {
  const period = now.getTime() + row.offlineDays * DAY_MS;
  const end = row.status === 'trial' && row.expiresAt ? Math.min(period, row.expiresAt.getTime()) : period;
  return new Date(end);
}

/** Who names the license: the signed-in buyer who holds it (My Tools), or the operator by its key (the CLI). */
export type OfflineLicenseRef = { licenseId: string; holderId: string } | { licenseKey: string };

async function licenseNamedBy(db: DbOrTx, secrets: DataSecrets, ref: OfflineLicenseRef) {
  const [license] = await db
    .select({ id: licenses.id, licenseKeySealed: licenses.licenseKeySealed })
    .from(licenses)
    .where(
      'licenseId' in ref
        ? and(eq(licenses.id, ref.licenseId), eq(licenses.holderId, ref.holderId))
        : inArray(licenses.licenseKeyHash, licenseKeyHashes(secrets, ref.licenseKey.trim().toUpperCase())),
    );
  if (!license) {
    throw new DomainError(
      'not_found',
      'licenseId' in ref ? 'License not found.' : 'No license with that key.',
    );
  }
  return license;
}

/** Why `takeSeat` refused, in the words a buyer reads, with the license API's code for a program. */
function seatRefusal(refused: LicenseAnswer, row: LicenseRow): DomainError {
  const messages: Partial<Record<LicenseAnswer['code'], string>> = {
    LIMIT_REACHED: OFFLINE_MESSAGES.limitReached(seatLimit(row)),
    TRIAL_USED: OFFLINE_MESSAGES.trialUsed,
    EXPIRED: OFFLINE_MESSAGES.trialEnded,
    REVOKED: LICENSE_MESSAGES.licenseRevoked,
    SUSPENDED: LICENSE_MESSAGES.licenseSuspended,
  };
  return new DomainError('refused', messages[refused.code] ?? LICENSE_MESSAGES.licenseRevoked, {
    answerCode: refused.code,
  });
}

/** An offline activation made: the response file (its name and exact text) and the device as My Tools lists it. */
export type OfflineActivation = {
  licenseId: string;
  fileName: string;
  text: string;
  device: { id: string; name: string | null; offlineUntil: Date };
};

/**
 * Answers a computer's activation request with its response file, taking its seat as an online activation would
 * (`takeSeat`: the device limit, one trial per machine, concurrent requests queued on the license row). The same
 * machine again (a renewal before its file ends, or the same request uploaded twice) keeps its seat and gets a new
 * file; its earlier deactivation code stops working unless the request is the same. Refused for another tool's
 * request and for a floating tool, whose seats are leases a machine must renew online. The operator's run
 * (`actor`) writes its audit entry in the transaction.
 */
export async function activateWithoutInternet(
  ctx: AppContext,
  ref: OfflineLicenseRef,
  requestText: string,
  actor?: Actor,
): Promise<OfflineActivation> {
  const request = parseOfflineRequest(requestText);
  const license = await licenseNamedBy(ctx.db, ctx.dataSecrets, ref);
  const found = await findLicenseById(
    ctx,
    license.id,
    request.fingerprint,
    revealLicenseKey(ctx.dataSecrets, license),
  );
  if (!found) throw new DomainError('not_found', 'License not found.');
  if (found.toolId !== request.toolId) {
    throw new DomainError('refused', OFFLINE_MESSAGES.wrongTool(found.toolName), {
      answerCode: 'WRONG_TOOL',
    });
  }
  if (isFloating(found)) throw new DomainError('refused', OFFLINE_MESSAGES.floating);

  const issued = await ctx.db.transaction(async (tx): Promise<OfflineActivation> => {
    const seat = await takeSeat(ctx, tx, found, request);
    if (!seat.taken) throw seatRefusal(seat.refused, found);
    const { row, activation } = seat;
    const until = offlineEnd(row, ctx.clock.now());
    const deactivationKey = deactivationKeyOf(ctx.dataSecrets, activation.id, request.nonce);
    const code = deactivationCodeOf(deactivationKey, activation.id);
    await tx
      .update(licenseActivations)
      .set({ offlineUntil: until, offlineCodeHash: ctx.dataSecrets.lookupHash(CODE_HASH_PURPOSE, code) })
      .where(eq(licenseActivations.id, activation.id));
    // fileFor's file: what an online answer's file carries (status, edition, entitlements, a trial's end), this does.
    const text = fileFor(ctx, row, activation, { nonce: request.nonce, deactivationKey, until });
    if (actor) {
      await recordAudit(tx, actor, {
        action: 'license.offline_activate',
        target: `license:${row.id}`,
        before: { device: activation.id, offlineUntil: activation.offlineUntil },
        after: { device: activation.id, name: activation.name, offlineUntil: until },
      });
    }
    return {
      licenseId: row.id,
      fileName: licenseFileName(row.toolName, 'activation-response'),
      text,
      device: { id: activation.id, name: activation.name, offlineUntil: until },
    };
  });
  // This machine may have been remembered as not activated (were it ever to go online).
  forgetLicenses(ctx, found.id);
  return issued;
}

const codeRefused = (message: string) =>
  new DomainError('invalid_code', message, { fieldErrors: { code: message } });

/**
 * Frees the seat of a computer activated without internet with the deactivation code it showed (normalised by the
 * route's schema): outside the buyer's monthly allowance, since the code shows the tool gave its file up. Only a code
 * of a computer on this license counts; each frees its seat once.
 */
export async function deactivateWithCode(
  ctx: AppContext,
  holder: { licenseId: string; holderId: string },
  code: string,
): Promise<{ name: string | null; selfDeactivationsLeft: number }> {
  const freed = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const license = await licenseNamedBy(tx, ctx.dataSecrets, holder);
    // Locked as every freeing of a seat locks it (allowance.ts), which also counts what the buyer has left.
    const selfDeactivationsLeft = await lockDeactivationsLeft(tx, license.id, now);
    const [device] = await tx
      .select({
        id: licenseActivations.id,
        name: licenseActivations.name,
        deactivatedAt: licenseActivations.deactivatedAt,
      })
      .from(licenseActivations)
      .where(
        and(
          eq(licenseActivations.licenseId, license.id),
          inArray(licenseActivations.offlineCodeHash, ctx.dataSecrets.lookupHashes(CODE_HASH_PURPOSE, code)),
        ),
      );
    if (!device) throw codeRefused(OFFLINE_MESSAGES.codeUnknown);
    if (device.deactivatedAt) throw codeRefused(OFFLINE_MESSAGES.codeUsed);
    await tx
      .update(licenseActivations)
      .set({ deactivatedAt: now, deactivatedBy: 'offline-code' })
      .where(and(eq(licenseActivations.id, device.id), isNull(licenseActivations.deactivatedAt)));
    return { licenseId: license.id, name: device.name, selfDeactivationsLeft };
  });
  forgetLicenses(ctx, freed.licenseId);
  return { name: freed.name, selfDeactivationsLeft: freed.selfDeactivationsLeft };
}
