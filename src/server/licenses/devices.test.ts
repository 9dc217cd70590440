import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testAppForFile } from '../../../test/support/file-apps';
import { fingerprint, licensedPurchase } from '../../../test/support/license-fixtures';
import { loginAs } from '../../../test/support/shop-fixtures';
import { LICENSE_MESSAGES, type MyLicense } from '../../shared/licenses';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { purchases } from '../db/schema/orders';
import { activateLicense } from './activate';

const t = testAppForFile();

async function ownerWithDevices(machines: number, activationLimit = 10) {
  const purchase = await licensedPurchase(t.ctx, { activationLimit });
  const client = await loginAs(t, { id: purchase.userId });
  const fingerprints = Array.from({ length: machines }, (_, index) => fingerprint(`pc${index}`));
  for (const [index, machine] of fingerprints.entries()) {
    const answer = await activateLicense(t.ctx, {
      licenseKey: purchase.licenseKey ?? '',
      toolId: purchase.toolId,
      fingerprint: machine,
      name: `PC ${index}`,
    });
    if (!answer.valid) throw new Error(answer.code);
  }
  const list = async () => (await client.get('/api/my-licenses/')).json<MyLicense[]>();
  return { purchase, client, fingerprints, list };
}

describe('My Tools devices', () => {
  it('lists the license key and the devices with their names and dates', async () => {
    const { purchase, list } = await ownerWithDevices(2);
    const [license] = await list();
    expect(license).toMatchObject({
      toolId: purchase.toolId,
      licenseKey: purchase.licenseKey,
      username: null,
      status: 'active',
      activationLimit: 10,
      selfDeactivationsLeft: 3,
    });
    expect(license?.devices.map((device) => device.name)).toEqual(['PC 0', 'PC 1']);
    expect(license?.devices[0]?.lastSeenAt).toBe(t.clock.now().toISOString());
  });

  it('frees a device for its owner, three times in 30 days, then asks to contact support', async () => {
    const { purchase, client, list } = await ownerWithDevices(5);
    const devices = (await list())[0]?.devices ?? [];
    for (const [index, device] of devices.slice(0, 3).entries()) {
      const response = await client.post(`/api/my-licenses/devices/${device.id}/deactivate`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        message: LICENSE_MESSAGES.deviceDeactivated,
        selfDeactivationsLeft: 2 - index,
      });
    }
    const fourth = await client.post(`/api/my-licenses/devices/${devices[3]?.id}/deactivate`);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({
      code: 'refused',
      message: LICENSE_MESSAGES.selfDeactivationLimit,
    });
    expect(fourth.json().message).toContain('contact support');
    expect((await list())[0]?.devices).toHaveLength(2);

    // 30 days later the allowance is back; an operator reset would bring it back at once.
    await t.ctx.db
      .update(licenseActivations)
      .set({ deactivatedAt: new Date(t.clock.now().getTime() - 30 * 24 * 60 * 60 * 1000 - 1000) })
      .where(
        and(
          eq(licenseActivations.licenseId, purchase.licenseId),
          eq(licenseActivations.deactivatedBy, 'owner'),
        ),
      );
    expect((await list())[0]?.selfDeactivationsLeft).toBe(3);
    expect((await client.post(`/api/my-licenses/devices/${devices[3]?.id}/deactivate`)).statusCode).toBe(200);
    await t.ctx.db
      .update(licenses)
      .set({ selfDeactivationsResetAt: t.clock.now() })
      .where(eq(licenses.id, purchase.licenseId));
    expect((await list())[0]?.selfDeactivationsLeft).toBe(3);
    expect((await list())[0]?.devices).toHaveLength(1);
  });

  it('needs the CSRF token, and another user cannot see or touch a device', async () => {
    const { client, list } = await ownerWithDevices(1);
    const device = (await list())[0]?.devices[0];
    const stranger = await loginAs(t, { id: (await licensedPurchase(t.ctx)).userId });
    const theirs = await stranger.post(`/api/my-licenses/devices/${device?.id}/deactivate`);
    expect(theirs.statusCode).toBe(404);
    expect((await stranger.get(`/api/my-licenses/devices/${device?.id}/license-file`)).statusCode).toBe(404);
    expect((await stranger.get('/api/my-licenses/')).json<MyLicense[]>()[0]?.devices).toEqual([]);
    expect((await stranger.post('/api/my-licenses/devices/not-a-uuid/deactivate')).statusCode).toBe(400);
    const anonymous = await t.client();
    expect((await anonymous.get('/api/my-licenses/')).statusCode).toBe(401);

    client.sendCsrfHeader = false;
    expect((await client.post(`/api/my-licenses/devices/${device?.id}/deactivate`)).statusCode).toBe(403);
    const [row] = await t.ctx.db
      .select()
      .from(licenseActivations)
      .where(eq(licenseActivations.id, device?.id ?? ''));
    expect(row?.deactivatedAt).toBeNull();
  });

  it('downloads a signed license file per device, and none once the license is revoked', async () => {
    const { purchase, client, fingerprints, list } = await ownerWithDevices(1);
    const device = (await list())[0]?.devices[0];
    const response = await client.get(`/api/my-licenses/devices/${device?.id}/license-file`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="licensed-tool-[0-9a-f]+-license\.json"/,
    );
    const file = response.json();
    expect(t.ctx.licenseSigning.verify(file)).toBe(true);
    const payload = JSON.parse(Buffer.from(file.payload, 'base64').toString('utf8'));
    expect(payload).toMatchObject({
      fingerprint: fingerprints[0],
      activationId: device?.id,
      status: 'active',
    });

    await t.ctx.db.update(licenses).set({ status: 'suspended' }).where(eq(licenses.id, purchase.licenseId));
    const suspended = await client.get(`/api/my-licenses/devices/${device?.id}/license-file`);
    expect(suspended.statusCode).toBe(409);
    expect(suspended.json().message).toBe(LICENSE_MESSAGES.licenseSuspended);

    await t.ctx.db
      .update(purchases)
      .set({ refundedAt: t.clock.now() })
      .where(eq(purchases.id, purchase.purchaseId));
    expect((await client.get(`/api/my-licenses/devices/${device?.id}/license-file`)).statusCode).toBe(404);
    expect(await list()).toEqual([]);
  });
});
