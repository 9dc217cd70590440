import { and, eq, isNull } from 'drizzle-orm';
import type { LicenseAnswer, LicenseCode } from '../../shared/licenses';
import type { AppContext } from '../context';
import { licenseActivations } from '../db/schema';
import { activationsUsed, summaryOf } from './answers';
import { effectiveStatus, type LicenseRequest, lookUp } from './lookup';
import { forgetLicenses } from './memory';

/**
 * Frees this machine's seat, whatever the license's state (freeing a seat never grants anything). The answer
 * says what this machine is now: not activated, or revoked / suspended.
 */
export async function deactivateLicense(ctx: AppContext, request: LicenseRequest): Promise<LicenseAnswer> {
  const found = await lookUp(ctx.db, request);
  if (!found) return { valid: false, code: 'INVALID_KEY' };
  if (found.toolId !== request.toolId) return { valid: false, code: 'WRONG_TOOL' };

  let deactivated = false;
  if (found.activationId) {
    const freed = await ctx.db
      .update(licenseActivations)
      .set({ deactivatedAt: ctx.clock.now(), deactivatedBy: 'tool' })
      .where(and(eq(licenseActivations.id, found.activationId), isNull(licenseActivations.deactivatedAt)))
      .returning({ id: licenseActivations.id });
    deactivated = freed.length > 0;
    if (deactivated) forgetLicenses(ctx, found.id);
  }
  const status = effectiveStatus(found);
  const code: LicenseCode =
    status === 'revoked' ? 'REVOKED' : status === 'suspended' ? 'SUSPENDED' : 'NOT_ACTIVATED';
  return {
    valid: false,
    code,
    deactivated,
    license: summaryOf(found, await activationsUsed(ctx.db, found.id)),
  };
}
