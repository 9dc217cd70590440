import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { fingerprint, type LicensedPurchase, licensedPurchase } from '../../../test/support/license-fixtures';
import { loginAs } from '../../../test/support/shop-fixtures';
import { LICENSE_MESSAGES, type LicenseAnswer, type MyLicense } from '../../shared/licenses';
import { licenses } from '../db/schema/licenses';

/** One allowance for freeing machines (allowance.ts): the license API over real HTTP, and My Tools, together. */
const t = shopTestAppForFile();

async function call(
  action: 'activate' | 'validate' | 'deactivate',
  purchase: LicensedPurchase,
  machine: string,
) {
  const response = await fetch(`${t.baseUrl}/api/licenses/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ licenseKey: purchase.licenseKey, toolId: purchase.toolId, fingerprint: machine }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as LicenseAnswer;
}

/** What the operator's reset (command line or dashboard) changes: the allowance counts from now. */
async function operatorReset(purchase: LicensedPurchase) {
  await t.ctx.db
    .update(licenses)
    .set({ selfDeactivationsResetAt: t.clock.now() })
    .where(eq(licenses.id, purchase.licenseId));
  t.clock.advance(1000);
}

describe('the allowance for freeing machines', () => {
  it('lets a tool free 3 machines in 30 days through the API, and refuses the 4th with DEACTIVATION_LIMIT', async () => {
    const purchase = await licensedPurchase(t.ctx, { activationLimit: 2 });
    const machines = Array.from({ length: 4 }, (_, index) => fingerprint(`cycle${index}`));
    for (const machine of machines.slice(0, 3)) {
      expect(await call('activate', purchase, machine)).toMatchObject({ valid: true, code: 'VALID' });
      expect(await call('deactivate', purchase, machine)).toMatchObject({
        valid: false,
        code: 'NOT_ACTIVATED',
        deactivated: true,
      });
      t.clock.advance(60_000);
    }

    const fourth = machines[3] ?? '';
    expect(await call('activate', purchase, fourth)).toMatchObject({ valid: true, code: 'VALID' });
    expect(await call('deactivate', purchase, fourth)).toEqual({
      valid: false,
      code: 'DEACTIVATION_LIMIT',
      message: LICENSE_MESSAGES.selfDeactivationLimit,
      deactivated: false,
      license: expect.objectContaining({ activationLimit: 2, activationsUsed: 1 }),
    });
    // Still activated: the seat was not freed, so no further machine can be given a license file through it.
    expect(await call('validate', purchase, fourth)).toMatchObject({ valid: true, code: 'VALID' });

    // A machine that is not activated has nothing to free: it is told so, whatever the allowance.
    expect(await call('deactivate', purchase, machines[0] ?? '')).toMatchObject({
      code: 'NOT_ACTIVATED',
      deactivated: false,
    });

    await operatorReset(purchase);
    expect(await call('deactivate', purchase, fourth)).toMatchObject({
      code: 'NOT_ACTIVATED',
      deactivated: true,
    });
  });

  it('counts My Tools and the license API together, whichever comes first', async () => {
    const purchase = await licensedPurchase(t.ctx, { activationLimit: 5 });
    const owner = await loginAs(t, { id: purchase.userId });
    const machines = Array.from({ length: 4 }, (_, index) => fingerprint(`shared${index}`));
    for (const machine of machines) await call('activate', purchase, machine);
    const myLicense = async () => (await owner.get('/api/my-licenses/')).json<MyLicense[]>()[0];

    await call('deactivate', purchase, machines[0] ?? '');
    await call('deactivate', purchase, machines[1] ?? '');
    expect((await myLicense())?.selfDeactivationsLeft).toBe(1);

    const device = (await myLicense())?.devices[0];
    const freed = await owner.post(`/api/my-licenses/devices/${device?.id}/deactivate`);
    expect(freed.statusCode).toBe(200);
    expect(freed.json()).toMatchObject({ selfDeactivationsLeft: 0 });

    expect(await call('deactivate', purchase, machines[3] ?? '')).toMatchObject({
      code: 'DEACTIVATION_LIMIT',
    });
    const refused = await owner.post(
      `/api/my-licenses/devices/${(await myLicense())?.devices[0]?.id}/deactivate`,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: LICENSE_MESSAGES.selfDeactivationLimit });

    await operatorReset(purchase);
    expect((await myLicense())?.selfDeactivationsLeft).toBe(3);
    expect(await call('deactivate', purchase, machines[3] ?? '')).toMatchObject({ deactivated: true });
    expect((await myLicense())?.selfDeactivationsLeft).toBe(2);
  });
});
