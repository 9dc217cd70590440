import { and, asc, count, eq, gt, isNull } from 'drizzle-orm';
import {
  LICENSE_MESSAGES,
  type MyLicense,
  SELF_DEACTIVATION_LIMIT,
  SELF_DEACTIVATION_WINDOW_DAYS,
} from '../../shared/licenses';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db';
import { licenseActivations, licenses, purchases, tools } from '../db/schema';
import { DomainError } from '../domain-error';
import { issueLicenseFile } from './files';
import { effectiveStatus } from './lookup';
import { forgetLicenses } from './memory';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Self-service deactivations count from the later of 30 days ago and the operator's last reset. */
export function windowStart(now: Date, resetAt: Date | null): Date {
  const rolling = new Date(now.getTime() - SELF_DEACTIVATION_WINDOW_DAYS * DAY_MS);
  return resetAt && resetAt > rolling ? resetAt : rolling;
}

export async function selfDeactivationsSince(db: DbOrTx, licenseId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(licenseActivations)
    .where(
      and(
        eq(licenseActivations.licenseId, licenseId),
        eq(licenseActivations.deactivatedBy, 'owner'),
        gt(licenseActivations.deactivatedAt, since),
      ),
    );
  return row?.n ?? 0;
}

/** A license's machines in use, oldest first, and how many self-service deactivations its buyer has left. */
export async function seatsOf(db: DbOrTx, license: { id: string; resetAt: Date | null }, now: Date) {
  const devices = await db
    .select({
      id: licenseActivations.id,
      name: licenseActivations.name,
      activatedAt: licenseActivations.activatedAt,
      lastSeenAt: licenseActivations.lastSeenAt,
    })
    .from(licenseActivations)
    .where(and(eq(licenseActivations.licenseId, license.id), isNull(licenseActivations.deactivatedAt)))
    .orderBy(asc(licenseActivations.activatedAt));
  const used = await selfDeactivationsSince(db, license.id, windowStart(now, license.resetAt));
  return { devices, selfDeactivationsLeft: Math.max(0, SELF_DEACTIVATION_LIMIT - used) };
}

/** The buyer's live licenses (refunded purchases are gone from My Tools) with the machines they run on. */
export async function myLicenses(ctx: AppContext, userId: string): Promise<MyLicense[]> {
  const now = ctx.clock.now();
  const owned = await ctx.db
    .select({
      id: licenses.id,
      toolId: purchases.toolId,
      licenseKey: licenses.licenseKey,
      username: licenses.username,
      status: licenses.status,
      refundedAt: purchases.refundedAt,
      resetAt: licenses.selfDeactivationsResetAt,
      activationLimit: tools.activationLimit,
    })
    .from(purchases)
    .innerJoin(licenses, eq(licenses.purchaseId, purchases.id))
    .innerJoin(tools, eq(tools.id, purchases.toolId))
    .where(and(eq(purchases.userId, userId), isNull(purchases.refundedAt)));
  return Promise.all(
    owned.map(async (license) => {
      const { devices, selfDeactivationsLeft } = await seatsOf(ctx.db, license, now);
      return {
        toolId: license.toolId,
        licenseKey: license.licenseKey,
        username: license.username,
        status: effectiveStatus(license),
        activationLimit: license.activationLimit,
        devices: devices.map((device) => ({
          id: device.id,
          name: device.name,
          activatedAt: device.activatedAt.toISOString(),
          lastSeenAt: device.lastSeenAt.toISOString(),
        })),
        selfDeactivationsLeft,
      };
    }),
  );
}

/** A live device on a live purchase of this user; anyone else's device is simply not found. */
async function ownDevice(db: DbOrTx, userId: string, activationId: string) {
  const [device] = await db
    .select({
      activation: licenseActivations,
      license: licenses,
      refundedAt: purchases.refundedAt,
      toolId: tools.id,
      toolName: tools.name,
    })
    .from(licenseActivations)
    .innerJoin(licenses, eq(licenses.id, licenseActivations.licenseId))
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .innerJoin(tools, eq(tools.id, purchases.toolId))
    .where(
      and(
        eq(licenseActivations.id, activationId),
        isNull(licenseActivations.deactivatedAt),
        eq(purchases.userId, userId),
        isNull(purchases.refundedAt),
      ),
    );
  if (!device) throw new DomainError('not_found', LICENSE_MESSAGES.deviceNotFound);
  return device;
}

/**
 * Frees a device from My Tools. At most 3 per license in 30 days: enough to replace a broken or sold computer,
 * too few to pass one license around. Counted under the license row's lock, so parallel clicks cannot exceed it.
 */
export async function deactivateOwnDevice(
  ctx: AppContext,
  userId: string,
  activationId: string,
): Promise<{ selfDeactivationsLeft: number }> {
  const freed = await ctx.db.transaction(async (tx) => {
    const device = await ownDevice(tx, userId, activationId);
    const [license] = await tx
      .select({ resetAt: licenses.selfDeactivationsResetAt })
      .from(licenses)
      .where(eq(licenses.id, device.license.id))
      .for('update');
    const now = ctx.clock.now();
    const used = await selfDeactivationsSince(
      tx,
      device.license.id,
      windowStart(now, license?.resetAt ?? null),
    );
    if (used >= SELF_DEACTIVATION_LIMIT) {
      throw new DomainError('refused', LICENSE_MESSAGES.selfDeactivationLimit);
    }
    const freed = await tx
      .update(licenseActivations)
      .set({ deactivatedAt: now, deactivatedBy: 'owner' })
      .where(and(eq(licenseActivations.id, activationId), isNull(licenseActivations.deactivatedAt)))
      .returning({ id: licenseActivations.id });
    if (freed.length === 0) throw new DomainError('not_found', LICENSE_MESSAGES.deviceNotFound);
    return { licenseId: device.license.id, selfDeactivationsLeft: SELF_DEACTIVATION_LIMIT - used - 1 };
  });
  // The freed machine must hear NOT_ACTIVATED from this instance at once.
  forgetLicenses(ctx, freed.licenseId);
  return { selfDeactivationsLeft: freed.selfDeactivationsLeft };
}

/** A fresh license file for one of the buyer's devices; a suspended or revoked license gets none. */
export async function licenseFileForOwnDevice(
  ctx: AppContext,
  userId: string,
  activationId: string,
): Promise<{ fileName: string; text: string }> {
  const device = await ownDevice(ctx.db, userId, activationId);
  const status = effectiveStatus({ status: device.license.status, refundedAt: device.refundedAt });
  if (status !== 'active') {
    throw new DomainError(
      'refused',
      status === 'revoked' ? LICENSE_MESSAGES.licenseRevoked : LICENSE_MESSAGES.licenseSuspended,
    );
  }
  const text = issueLicenseFile(
    ctx.licenseSigning,
    {
      licenseKey: device.license.licenseKey,
      username: device.license.username,
      toolId: device.toolId,
      toolName: device.toolName,
      fingerprint: device.activation.fingerprint,
      activationId: device.activation.id,
      status,
    },
    ctx.clock.now(),
  );
  const slug =
    device.toolName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'tool';
  return { fileName: `${slug}-license.json`, text };
}
