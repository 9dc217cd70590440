import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testAppForFile } from '../../../test/support/file-apps';
import { licensedPurchase } from '../../../test/support/license-fixtures';
import { licenses } from '../db/schema/licenses';
import { orderEvents, orders } from '../db/schema/orders';
import { applyDispute } from '../orders/disputes';
import { changeLicenseOfPurchase } from './status';

const t = testAppForFile();

const statusOf = async (licenseId: string) =>
  (await t.ctx.db.select({ status: licenses.status }).from(licenses).where(eq(licenses.id, licenseId)))[0]
    ?.status;

describe('license status changes', () => {
  it('suspends only an active license, restores only a suspended one, and never undoes a revocation', async () => {
    const purchase = await licensedPurchase(t.ctx);
    const change = (kind: 'suspend' | 'restore' | 'revoke') =>
      changeLicenseOfPurchase(t.ctx.db, purchase.purchaseId, kind, t.clock.now());

    expect(await change('restore')).toBeUndefined();
    expect(await change('suspend')).toMatchObject({ status: 'suspended' });
    expect(await statusOf(purchase.licenseId)).toBe('suspended');
    expect(await change('suspend')).toBeUndefined();
    expect(await change('restore')).toMatchObject({ status: 'active' });
    expect(await statusOf(purchase.licenseId)).toBe('active');
    expect(await change('revoke')).toMatchObject({ status: 'revoked' });
    expect(await change('restore')).toBeUndefined();
    expect(await change('suspend')).toBeUndefined();
    expect(await statusOf(purchase.licenseId)).toBe('revoked');
  });

  it('follows a dispute on the payment and records each step on the order', async () => {
    const purchase = await licensedPurchase(t.ctx);
    const [order] = await t.ctx.db.select().from(orders).where(eq(orders.id, purchase.orderId));
    const paymentId = order?.razorpayPaymentId ?? '';
    const dispute = (outcome: 'created' | 'won' | 'lost') =>
      t.ctx.db.transaction((tx) =>
        applyDispute(t.ctx, tx, outcome, { id: 'disp_1', paymentId, amount: 99_900 }),
      );

    expect(await dispute('created')).toMatchObject({ result: 'recorded', licenseStatus: 'suspended' });
    expect(await dispute('won')).toMatchObject({ licenseStatus: 'active' });
    expect(await dispute('created')).toMatchObject({ licenseStatus: 'suspended' });
    expect(await dispute('lost')).toMatchObject({ licenseStatus: 'revoked' });
    expect(await statusOf(purchase.licenseId)).toBe('revoked');
    const kinds = (
      await t.ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, purchase.orderId))
    ).map((event) => event.kind);
    expect(kinds).toEqual(['dispute-created', 'dispute-won', 'dispute-created', 'dispute-lost']);

    const unknown = await t.ctx.db.transaction((tx) =>
      applyDispute(t.ctx, tx, 'created', { id: 'disp_2', paymentId: 'pay_unknown' }),
    );
    expect(unknown).toEqual({ result: 'unknown-payment' });
  });
});
