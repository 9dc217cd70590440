import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../context';
import { licenseActivations, licenses, purchases } from '../db/schema';

export type OperatorLicense = {
  licenseId: string;
  status: string;
  selfDeactivationsResetAt: Date | null;
  devices: Array<{
    id: string;
    name: string | null;
    fingerprint: string;
    activatedAt: Date;
    lastSeenAt: Date;
  }>;
};

/** The license of an order with its live devices, for the operator's command line and dashboard. */
export async function licenseOfOrder(ctx: AppContext, orderId: string): Promise<OperatorLicense | undefined> {
  const [license] = await ctx.db
    .select({
      licenseId: licenses.id,
      status: licenses.status,
      selfDeactivationsResetAt: licenses.selfDeactivationsResetAt,
    })
    .from(purchases)
    .innerJoin(licenses, eq(licenses.purchaseId, purchases.id))
    .where(eq(purchases.orderId, orderId));
  if (!license) return undefined;
  const devices = await ctx.db
    .select({
      id: licenseActivations.id,
      name: licenseActivations.name,
      fingerprint: licenseActivations.fingerprint,
      activatedAt: licenseActivations.activatedAt,
      lastSeenAt: licenseActivations.lastSeenAt,
    })
    .from(licenseActivations)
    .where(and(eq(licenseActivations.licenseId, license.licenseId), isNull(licenseActivations.deactivatedAt)))
    .orderBy(licenseActivations.activatedAt);
  return { ...license, devices };
}

/**
 * Gives a buyer their self-service deactivations back at once (support was contacted, the story checks out):
 * deactivations before now no longer count against the 3 in 30 days.
 */
export async function resetSelfDeactivations(ctx: AppContext, orderId: string): Promise<boolean> {
  const [purchase] = await ctx.db
    .select({ id: purchases.id })
    .from(purchases)
    .where(eq(purchases.orderId, orderId));
  if (!purchase) return false;
  const reset = await ctx.db
    .update(licenses)
    .set({ selfDeactivationsResetAt: ctx.clock.now() })
    .where(eq(licenses.purchaseId, purchase.id))
    .returning({ id: licenses.id });
  return reset.length > 0;
}

/** The operator frees a device (the buyer asked support after using up their own deactivations). */
export async function deactivateDeviceAsOperator(ctx: AppContext, activationId: string): Promise<boolean> {
  const freed = await ctx.db
    .update(licenseActivations)
    .set({ deactivatedAt: ctx.clock.now(), deactivatedBy: 'operator' })
    .where(and(eq(licenseActivations.id, activationId), isNull(licenseActivations.deactivatedAt)))
    .returning({ id: licenseActivations.id });
  return freed.length > 0;
}
