import { and, eq, isNull } from 'drizzle-orm';
import { LICENSE_MESSAGES, type LicenseAnswer, type LicenseCode } from '../../shared/licenses';
import { licenseActivations } from '../db/schema/licenses';
import type { AppContext } from '../kernel/context';
import { lockDeactivationsLeft } from './allowance';
import { activationsUsed, summaryOf } from './answers';
import { isFloating, releaseLease } from './leases';
import { effectiveStatus, type LicenseRequest, type LicenseRow, lookUp } from './lookup';
import { forgetLicenses } from './memory';

/**
 * Frees this machine's live activation, within the buyer's allowance for freeing machines (allowance.ts, shared
 * with My Tools). 'limit' when the allowance is spent; false when there was nothing to free.
 */
async function freeMachine(ctx: AppContext, found: LicenseRow): Promise<boolean | 'limit'> {
  const { activationId } = found;
  if (!activationId) return false;
  // A floating lease is given back on every clean exit: outside the allowance, as a lapsed one would be.
  if (isFloating(found)) return releaseLease(ctx, activationId);
  return ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    if ((await lockDeactivationsLeft(tx, found.id, now)) <= 0) return 'limit' as const;
    const freed = await tx
      .update(licenseActivations)
      .set({ deactivatedAt: now, deactivatedBy: 'tool' })
      .where(and(eq(licenseActivations.id, activationId), isNull(licenseActivations.deactivatedAt)))
      .returning({ id: licenseActivations.id });
    return freed.length > 0;
  });
}

/**
 * Frees this machine's seat, whatever the license's state (freeing a seat never grants anything), at most 3 times
 * per license in 30 days across this API and My Tools. The answer says what this machine is now: not activated,
 * revoked / suspended, or still activated because the allowance is spent (`DEACTIVATION_LIMIT`).
 */
export async function deactivateLicense(ctx: AppContext, request: LicenseRequest): Promise<LicenseAnswer> {
  const found = await lookUp(ctx, request);
  if (!found) return { valid: false, code: 'INVALID_KEY' };
  if (found.toolId !== request.toolId) return { valid: false, code: 'WRONG_TOOL' };

  const freed = await freeMachine(ctx, found);
  const license = summaryOf(found, await activationsUsed(ctx.db, found.id));
  if (freed === 'limit') {
    return {
      valid: false,
      code: 'DEACTIVATION_LIMIT',
      message: LICENSE_MESSAGES.selfDeactivationLimit,
      deactivated: false,
      license,
    };
  }
  if (freed) forgetLicenses(ctx, found.id);
  const status = effectiveStatus(found);
  const code: LicenseCode =
    status === 'revoked' ? 'REVOKED' : status === 'suspended' ? 'SUSPENDED' : 'NOT_ACTIVATED';
  return { valid: false, code, deactivated: freed, license };
}
