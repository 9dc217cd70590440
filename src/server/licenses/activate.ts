import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { ActivationSummary, LicenseAnswer } from '../../shared/licenses';
import type { Tx } from '../db';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { trialMachines } from '../db/schema/trials';
import type { AppContext } from '../kernel/context';
import {
  activationsUsed,
  fileFor,
  granted,
  refusal,
  refused as refusedAnswer,
  seatLimit,
  summaryOf,
} from './answers';
import { isFloating, leaseAnswer, leaseFrom, releaseLapsedLeases } from './leases';
import { type LicenseRequest, type LicenseRow, lookUp } from './lookup';
import { forgetLicenses } from './memory';
import { updateTokenHash, updateTokenOf, updateUrlsOf } from './update-tokens';

/**
 * Activates this machine. The license row is locked while seats are counted, so concurrent activations can never
 * exceed the limit; a machine already activated gets its own activation back and uses no second seat.
 */
export async function activateLicense(
  ctx: AppContext,
  request: LicenseRequest & { name?: string },
): Promise<LicenseAnswer> {
  const found = await lookUp(ctx, request);
  const refused = refusal(found, request.toolId, ctx.clock.now());
  if (refused || !found) {
    const license =
      found && refused !== 'WRONG_TOOL'
        ? summaryOf(found, await activationsUsed(ctx.db, found.id))
        : undefined;
    return { ...refusedAnswer(refused ?? 'INVALID_KEY', found), ...(license ? { license } : {}) };
  }

  const answer = await ctx.db.transaction(async (tx): Promise<LicenseAnswer> => {
    const now = ctx.clock.now();
    const [locked] = await tx
      .select({ status: licenses.status, expiresAt: licenses.expiresAt })
      .from(licenses)
      .where(eq(licenses.id, found.id))
      .for('update');
    const row = { ...found, ...locked };
    const lockedRefusal = refusal(row, request.toolId, now);
    if (lockedRefusal) return refusedAnswer(lockedRefusal, row);
    // A floating license's lapsed leases give their seats back before seats are counted (leases.ts).
    if (isFloating(row)) await releaseLapsedLeases(tx, found.id, now);
    const lease = leaseFrom(row, now);

    const live = await tx
      .select()
      .from(licenseActivations)
      .where(and(eq(licenseActivations.licenseId, found.id), isNull(licenseActivations.deactivatedAt)));
    let activation = live.find((candidate) => candidate.fingerprint === request.fingerprint);
    if (activation) {
      // The hash is written again: activations made before update feeds existed, or before a key rotation, get one.
      await tx
        .update(licenseActivations)
        .set({
          lastSeenAt: now,
          updateTokenHash: updateTokenHash(ctx.dataSecrets, updateTokenOf(ctx.dataSecrets, activation.id)),
          ...(request.name ? { name: request.name } : {}),
          ...lease,
        })
        .where(eq(licenseActivations.id, activation.id));
      activation = { ...activation, name: request.name ?? activation.name };
    } else {
      if (live.length >= seatLimit(row)) {
        return { valid: false, code: 'LIMIT_REACHED', license: summaryOf(row, live.length) };
      }
      if (row.status === 'trial' && !(await claimTrialMachine(ctx, tx, row, request.fingerprint))) {
        return { valid: false, code: 'TRIAL_USED' };
      }
      const id = randomUUID();
      const [inserted] = await tx
        .insert(licenseActivations)
        .values({
          id,
          updateTokenHash: updateTokenHash(ctx.dataSecrets, updateTokenOf(ctx.dataSecrets, id)),
          licenseId: found.id,
          fingerprint: request.fingerprint,
          name: request.name ?? null,
          activatedAt: now,
          lastSeenAt: now,
          ...lease,
        })
        .returning();
      if (!inserted) throw new Error('activation insert returned no row');
      activation = inserted;
      live.push(inserted);
    }
    const summary: ActivationSummary = {
      id: activation.id,
      fingerprint: activation.fingerprint,
      name: activation.name,
      activatedAt: activation.activatedAt.toISOString(),
    };
    return {
      valid: true,
      ...granted(row),
      ...leaseAnswer(row, lease),
      license: summaryOf(row, live.length),
      activation: summary,
      licenseFile: fileFor(ctx, row, { ...activation, ...lease }),
      updates: updateUrlsOf(ctx.config.publicUrl, updateTokenOf(ctx.dataSecrets, activation.id)),
    };
  });
  // This machine may have been remembered as not activated.
  if (answer.valid) forgetLicenses(ctx, found.id);
  return answer;
}

/** What a trial machine's fingerprint is hashed for (data-secrets' keyed look-up hash). */
export const TRIAL_MACHINE_PURPOSE = 'trial-machine';

/**
 * A fingerprint as the one-trial-per-machine rule compares it: letter case, and spaces and punctuation around it,
 * do not make another machine.
 */
const normaliseFingerprint = (fingerprint: string) =>
  fingerprint.replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, '').toLowerCase();

/**
 * One trial per machine and tool, whichever account it is started from: the first trial to activate on a machine
 * claims its fingerprint (hashed) for the tool; another account's trial on it is refused. Reinstalling changes
 * nothing here, and the same trial may come back to its own machine.
 */
async function claimTrialMachine(
  ctx: AppContext,
  tx: Tx,
  row: LicenseRow,
  fingerprint: string,
): Promise<boolean> {
  if (!row.trialId) return true;
  const purpose = TRIAL_MACHINE_PURPOSE;
  const claimed = await tx
    .insert(trialMachines)
    .values({
      toolId: row.toolId,
      fingerprintHash: ctx.dataSecrets.lookupHash(purpose, normaliseFingerprint(fingerprint)),
      trialId: row.trialId,
    })
    .onConflictDoNothing()
    .returning({ trialId: trialMachines.trialId });
  if (claimed.length > 0) return true;
  const holders = await tx
    .select({ trialId: trialMachines.trialId })
    .from(trialMachines)
    .where(
      and(
        eq(trialMachines.toolId, row.toolId),
        // Claims made before fingerprints were normalised were hashed as sent.
        inArray(trialMachines.fingerprintHash, [
          ...ctx.dataSecrets.lookupHashes(purpose, normaliseFingerprint(fingerprint)),
          ...ctx.dataSecrets.lookupHashes(purpose, fingerprint),
        ]),
      ),
    );
  return holders.every((holder) => holder.trialId === row.trialId);
}
