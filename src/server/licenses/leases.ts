import { and, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { LicenseAnswer } from '../../shared/licenses';
import type { Tx } from '../db';
import { licenseActivations } from '../db/schema/licenses';
import type { AppContext } from '../kernel/context';
import { fileFor, granted, refusal, refused as refusedAnswer } from './answers';
import { type LicenseRequest, type LicenseRow, lookUp } from './lookup';
import { forgetLicenses } from './memory';

/**
 * Floating licenses (decision 049): on a tool whose license model is `floating`, a machine's activation is a lease.
 * Activate takes one, `POST /api/licenses/heartbeat` renews it, deactivate gives it back at once, and a lease that
 * ran out (the heartbeat interval plus a grace of one interval without a heartbeat) gives its seat back by itself:
 * the next activation on the license releases it, as `lapsed`, which the buyer's deactivation allowance never
 * counts. Seats are still the tool's activation limit; activate counts them with the license row locked, so
 * concurrent activations cannot take more.
 */

const MINUTE_MS = 60 * 1000;

type Leased = Pick<LicenseRow, 'licenseModel' | 'heartbeatMinutes'>;

export const isFloating = (row: Pick<LicenseRow, 'licenseModel'>): boolean => row.licenseModel === 'floating';

/** A lease taken or renewed now ends after the interval and one more as grace; a per-device seat has no end. */
export function leaseFrom(row: Leased, now: Date): { leaseExpiresAt?: Date } {
  if (!isFloating(row)) return {};
  return { leaseExpiresAt: new Date(now.getTime() + 2 * row.heartbeatMinutes * MINUTE_MS) };
}

/**
 * Whether this machine's seat is gone because its lease ran out. An activation made before its tool became floating
 * has no lease: it is lapsed too, and the machine activates again (which takes a lease).
 */
export function leaseLapsed(row: Pick<LicenseRow, 'licenseModel' | 'leaseExpiresAt'>, now: Date): boolean {
  if (!isFloating(row)) return false;
  return !row.leaseExpiresAt || now.getTime() >= row.leaseExpiresAt.getTime();
}

/** This machine's lease as its row remembers it, on a floating license only. */
export const leaseOf = (
  row: Pick<LicenseRow, 'licenseModel' | 'leaseExpiresAt'>,
): { leaseExpiresAt?: Date } =>
  isFloating(row) && row.leaseExpiresAt ? { leaseExpiresAt: row.leaseExpiresAt } : {};

/** The lease's end as an answer carries it, with how often the tool should renew it. */
export const leaseAnswer = (
  row: Leased,
  lease: { leaseExpiresAt?: Date | null },
): { leaseExpiresAt?: string; heartbeatSeconds?: number } =>
  lease.leaseExpiresAt
    ? { leaseExpiresAt: lease.leaseExpiresAt.toISOString(), heartbeatSeconds: row.heartbeatMinutes * 60 }
    : {};

/** Gives back the seats of a license's lapsed leases; call it with the license row locked, before counting seats. */
export async function releaseLapsedLeases(tx: Tx, licenseId: string, now: Date): Promise<void> {
  await tx
    .update(licenseActivations)
    .set({ deactivatedAt: now, deactivatedBy: 'lapsed' })
    .where(
      and(
        eq(licenseActivations.licenseId, licenseId),
        isNull(licenseActivations.deactivatedAt),
        or(isNull(licenseActivations.leaseExpiresAt), lte(licenseActivations.leaseExpiresAt, now)),
      ),
    );
}

/** Deactivate on a floating license: the lease ends now, outside the deactivation allowance. */
export async function releaseLease(ctx: AppContext, activationId: string): Promise<boolean> {
  const released = await ctx.db
    .update(licenseActivations)
    .set({ deactivatedAt: ctx.clock.now(), deactivatedBy: 'released' })
    .where(and(eq(licenseActivations.id, activationId), isNull(licenseActivations.deactivatedAt)))
    .returning({ id: licenseActivations.id });
  return released.length > 0;
}

/**
 * `POST /api/licenses/heartbeat`: renews this machine's live lease and answers its new end with a license file that
 * ends with it. A machine without a live lease (never activated, freed, or lapsed) is NOT_ACTIVATED: it activates
 * again, which answers LIMIT_REACHED when every seat is held. On a per-device license it is validate.
 */
export async function heartbeatLicense(
  ctx: AppContext,
  request: LicenseRequest,
  validate: (ctx: AppContext, request: LicenseRequest) => Promise<LicenseAnswer>,
): Promise<LicenseAnswer> {
  const found = await lookUp(ctx, request);
  const now = ctx.clock.now();
  const refused = refusal(found, request.toolId, now);
  if (refused || !found) return refusedAnswer(refused ?? 'INVALID_KEY', found);
  if (!isFloating(found)) return validate(ctx, request);
  const { activationId } = found;
  if (!activationId || leaseLapsed(found, now)) return { valid: false, code: 'NOT_ACTIVATED' };

  const lease = leaseFrom(found, now);
  // Renewed only while it is live: a sweep that released it meanwhile wins, and this machine activates again.
  const renewed = await ctx.db
    .update(licenseActivations)
    .set({ leaseExpiresAt: lease.leaseExpiresAt, lastSeenAt: now })
    .where(
      and(
        eq(licenseActivations.id, activationId),
        isNull(licenseActivations.deactivatedAt),
        gt(licenseActivations.leaseExpiresAt, now),
      ),
    )
    .returning({ id: licenseActivations.id });
  if (renewed.length === 0) return { valid: false, code: 'NOT_ACTIVATED' };
  forgetLicenses(ctx, found.id);
  return {
    valid: true,
    ...granted(found),
    ...leaseAnswer(found, lease),
    licenseFile: fileFor(ctx, found, { id: activationId, fingerprint: request.fingerprint, ...lease }),
  };
}
