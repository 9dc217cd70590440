import { and, count, eq, isNull } from 'drizzle-orm';
import type { LicenseEdition } from '../../shared/editions';
import type { LicenseCode, LicenseSummary } from '../../shared/licenses';
import type { DbOrTx } from '../db';
import { licenseActivations } from '../db/schema/licenses';
import type { AppContext } from '../kernel/context';
import { issueLicenseFile } from './files';
import { effectiveStatus, type LicenseRow } from './lookup';

/** What activate, validate and deactivate answer alike. */

/**
 * The first answer every call shares: unknown key, another tool's key, a revoked or suspended license, a trial
 * past its end. The end is compared with `now` on every answer, so a remembered row never outlives its trial.
 */
export function refusal(row: LicenseRow | undefined, toolId: string, now: Date): LicenseCode | undefined {
  if (!row) return 'INVALID_KEY';
  if (row.toolId !== toolId) return 'WRONG_TOOL';
  const status = effectiveStatus(row);
  if (status === 'revoked') return 'REVOKED';
  if (status === 'suspended') return 'SUSPENDED';
  if (status === 'trial' && (!row.expiresAt || now.getTime() >= row.expiresAt.getTime())) return 'EXPIRED';
  return undefined;
}

/**
 * What a license may do, in every answer that lets it run: its edition (null without editions), its entitlements,
 * and the end of its updates (null: every release; decision 059).
 */
export type Entitled = {
  edition: LicenseEdition | null;
  entitlements: string[];
  updatesUntil: string | null;
};

const entitledOf = (row: LicenseRow): Entitled => ({
  edition: row.editionId && row.editionName ? { id: row.editionId, name: row.editionName } : null,
  entitlements: row.entitlements,
  updatesUntil: row.updatesUntil?.toISOString() ?? null,
});

/**
 * A refusal as every call answers it. SUSPENDED by the firm says why, in the operator's words (decision 059); a
 * dispute's suspension answers as it always has.
 */
export function refused(
  code: LicenseCode,
  row?: Pick<LicenseRow, 'suspendedReason'>,
): { valid: false; code: LicenseCode; reason?: string } {
  if (code !== 'SUSPENDED' || !row?.suspendedReason) return { valid: false, code };
  return { valid: false, code, reason: row.suspendedReason };
}

/** What a license that may run answers: VALID, or TRIAL with the trial's end; with its edition and entitlements. */
export function granted(
  row: LicenseRow,
): ({ code: 'VALID' } | { code: 'TRIAL'; expiresAt: string }) & Entitled {
  if (effectiveStatus(row) === 'trial' && row.expiresAt)
    return { code: 'TRIAL', expiresAt: row.expiresAt.toISOString(), ...entitledOf(row) };
  return { code: 'VALID', ...entitledOf(row) };
}

/** A trial runs on one machine; a bought license on as many as its tool allows. */
export const seatLimit = (row: LicenseRow): number =>
  effectiveStatus(row) === 'trial' ? 1 : row.activationLimit;

export async function activationsUsed(db: DbOrTx, licenseId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(licenseActivations)
    .where(and(eq(licenseActivations.licenseId, licenseId), isNull(licenseActivations.deactivatedAt)));
  return row?.n ?? 0;
}

export function summaryOf(row: LicenseRow, used: number): LicenseSummary {
  return {
    toolId: row.toolId,
    toolName: row.toolName,
    status: effectiveStatus(row),
    activationLimit: seatLimit(row),
    activationsUsed: used,
  };
}

export function fileFor(
  ctx: AppContext,
  row: LicenseRow,
  activation: { id: string; fingerprint: string; leaseExpiresAt?: Date | null },
): string {
  return issueLicenseFile(
    ctx.licenseSigning,
    {
      licenseKey: row.licenseKey,
      username: row.username,
      toolId: row.toolId,
      toolName: row.toolName,
      fingerprint: activation.fingerprint,
      activationId: activation.id,
      status: effectiveStatus(row),
      expiresAt: effectiveStatus(row) === 'trial' ? row.expiresAt : null,
      leaseExpiresAt: activation.leaseExpiresAt ?? null,
      ...entitledOf(row),
    },
    ctx.clock.now(),
  );
}
