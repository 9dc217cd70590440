import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { LicenseStatus } from '../../shared/licenses';
import type { DbOrTx } from '../db';
import { licenses } from '../db/schema/licenses';
import { orders, purchases } from '../db/schema/orders';
import { queueLicenseStatusEvent } from '../webhooks/events';

/**
 * What a payment dispute or a refund does to a license. A suspension (dispute opened) only touches an active
 * license and a restoration (dispute won) only a suspended one; a revocation (refund, dispute lost) is final.
 */
export type LicenseChange = 'suspend' | 'restore' | 'revoke';

const TRANSITIONS: Record<LicenseChange, { from: LicenseStatus[]; to: LicenseStatus }> = {
  suspend: { from: ['active'], to: 'suspended' },
  restore: { from: ['suspended'], to: 'active' },
  revoke: { from: ['active', 'suspended'], to: 'revoked' },
};

type LicenseStatusChange = { licenseId: string; status: LicenseStatus };

/** Changes the license of one purchase, in the caller's transaction; undefined when nothing changed. */
export async function changeLicenseOfPurchase(
  tx: DbOrTx,
  purchaseId: string,
  change: LicenseChange,
  now: Date,
): Promise<LicenseStatusChange | undefined> {
  const { from, to } = TRANSITIONS[change];
  // A team's members share its purchase (decision 051): their licenses change with the owner's.
  const changed = await tx
    .update(licenses)
    .set({ status: to, statusChangedAt: now })
    .where(
      and(
        eq(licenses.purchaseId, purchaseId),
        inArray(licenses.status, from),
        // A dispute won lifts the dispute's suspension, not one the firm made by hand (decision 059).
        change === 'restore' ? isNull(licenses.suspendedReason) : undefined,
      ),
    )
    .returning({ licenseId: licenses.id, status: licenses.status, teamLicenseId: licenses.teamLicenseId });
  for (const { teamLicenseId: _, ...license } of changed) await queueLicenseStatusEvent(tx, license, now);
  const own = changed.find((license) => license.teamLicenseId === null) ?? changed[0];
  return own && { licenseId: own.licenseId, status: own.status };
}

/** The same for the purchase a Razorpay payment paid for (disputes name the payment, not our order). */
export async function changeLicenseOfPayment(
  tx: DbOrTx,
  razorpayPaymentId: string,
  change: LicenseChange,
  now: Date,
): Promise<{ orderId: string; purchaseId: string; changed: LicenseStatusChange | undefined } | undefined> {
  const [purchase] = await tx
    .select({ orderId: orders.id, purchaseId: purchases.id })
    .from(orders)
    .innerJoin(purchases, eq(purchases.orderId, orders.id))
    .where(eq(orders.razorpayPaymentId, razorpayPaymentId));
  if (!purchase) return undefined;
  return { ...purchase, changed: await changeLicenseOfPurchase(tx, purchase.purchaseId, change, now) };
}

/**
 * Why a buyer's live purchase of a tool may not deliver anything now (Get Credentials): its license is suspended
 * (by an open dispute, or by the firm with a reason) or revoked. Undefined when it may (or when there is no such purchase: the caller says so).
 */
export async function licenseHold(
  db: DbOrTx,
  owner: { userId: string; toolId: string },
): Promise<{ status: 'suspended' | 'revoked'; reason: string | null } | undefined> {
  const [license] = await db
    .select({ status: licenses.status, reason: licenses.suspendedReason })
    .from(purchases)
    .innerJoin(licenses, and(eq(licenses.purchaseId, purchases.id), isNull(licenses.teamLicenseId)))
    .where(
      and(
        eq(purchases.userId, owner.userId),
        eq(purchases.toolId, owner.toolId),
        isNull(purchases.refundedAt),
      ),
    );
  return license?.status === 'suspended' || license?.status === 'revoked'
    ? { status: license.status, reason: license.reason }
    : undefined;
}
