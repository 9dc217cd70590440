import type { Tx } from '../db';
import type { AppContext } from '../kernel/context';
import { changeLicenseOfPayment, type LicenseChange } from '../licenses/status';
import { recordOrderEvent } from './events';

export type DisputeOutcome = 'created' | 'won' | 'lost';

const CHANGE: Record<DisputeOutcome, LicenseChange> = { created: 'suspend', won: 'restore', lost: 'revoke' };

export type DisputeResult =
  | { result: 'unknown-payment' }
  | { result: 'recorded'; orderId: string; licenseStatus: string | null };

/**
 * A chargeback on a payment, from Razorpay's webhook, inside its transaction: an open dispute suspends the
 * license (validate answers SUSPENDED; downloads and "Get Credentials" stop), a won one restores it, a lost one
 * revokes it for good. The order's history records each step.
 */
export async function applyDispute(
  ctx: AppContext,
  tx: Tx,
  outcome: DisputeOutcome,
  dispute: { id: string; paymentId: string; amount?: number; reason?: string | null },
): Promise<DisputeResult> {
  const now = ctx.clock.now();
  const applied = await changeLicenseOfPayment(tx, dispute.paymentId, CHANGE[outcome], now);
  if (!applied) return { result: 'unknown-payment' };
  const licenseStatus = applied.changed?.status ?? null;
  await recordOrderEvent(
    tx,
    applied.orderId,
    `dispute-${outcome}`,
    {
      disputeId: dispute.id,
      paymentId: dispute.paymentId,
      amount: dispute.amount,
      reason: dispute.reason,
      licenseStatus,
    },
    now,
  );
  return { result: 'recorded', orderId: applied.orderId, licenseStatus };
}
