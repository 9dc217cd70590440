import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditOf, signedInBuyer, totpAt, verifiedOperator } from '../../../test/support/dashboard-helpers';
import { sharedForFile, shopTestAppForFile } from '../../../test/support/file-apps';
import { fingerprint, licensedPurchase } from '../../../test/support/license-fixtures';
import { addTool, TOOL_FORM } from '../../../test/support/shop-fixtures';
import type { AdminTool, CustomerDetail } from '../../shared/dashboard';
import { tools } from '../db/schema/catalogue';
import { licenses } from '../db/schema/licenses';

/**
 * The dashboard's side of issue 65: suspending a license by hand with a reason and reinstating it (audited, only for
 * a verified operator's session with its CSRF header), and a tool's update period and renewal prices on its page.
 */

const t = shopTestAppForFile();
const operator = sharedForFile(() => verifiedOperator(t));

describe('POST /api/admin/licenses/:id/suspend and /reinstate', () => {
  it('suspends with a reason (audited), which the license answers with, and reinstates; strangers change nothing', async () => {
    const bought = await licensedPurchase(t.ctx);
    const machine = fingerprint();
    const validate = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/licenses/validate',
          payload: { licenseKey: bought.licenseKey, toolId: bought.toolId, fingerprint: machine },
        })
      ).json<{ code: string; reason?: string }>();
    await t.app.inject({
      method: 'POST',
      url: '/api/licenses/activate',
      payload: { licenseKey: bought.licenseKey, toolId: bought.toolId, fingerprint: machine },
    });
    const suspendUrl = `/api/admin/licenses/${bought.licenseId}/suspend`;
    const reason = 'The key was posted on a public forum';
    const statusNow = async () =>
      (await t.ctx.db.select().from(licenses).where(eq(licenses.id, bought.licenseId)))[0]?.status;

    const signedOut = await t.client();
    expect((await signedOut.post(suspendUrl, { reason })).statusCode).toBe(401);
    const buyer = await signedInBuyer(t);
    expect((await buyer.client.post(suspendUrl, { reason })).statusCode).toBe(403);
    operator.client.sendCsrfHeader = false;
    try {
      const noCsrf = await operator.client.post(suspendUrl, { reason });
      expect(noCsrf.statusCode).toBe(403);
      expect(noCsrf.json().code).toBe('csrf_failed');
    } finally {
      operator.client.sendCsrfHeader = true;
    }
    const noReason = await operator.client.post(suspendUrl, { reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fieldErrors.reason).toBe('Say why: the buyer is emailed the reason.');
    expect(await statusNow()).toBe('active');
    expect(await auditOf(t, 'license.suspend', `license:${bought.licenseId}`)).toEqual([]);

    const suspended = await operator.client.post(suspendUrl, { reason });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json().message).toBe('The license is suspended; the buyer is emailed the reason.');
    expect(await validate()).toMatchObject({ code: 'SUSPENDED', reason });
    const [audit] = await auditOf(t, 'license.suspend', `license:${bought.licenseId}`);
    expect(audit).toMatchObject({ after: { status: 'suspended', reason } });
    expect(audit?.actor).toContain(operator.email);
    const customer = (
      await operator.client.get(`/api/admin/customers/${bought.userId}`)
    ).json<CustomerDetail>();
    expect(customer.licenses[0]).toMatchObject({ status: 'suspended', suspendedReason: reason });

    const reinstateUrl = `/api/admin/licenses/${bought.licenseId}/reinstate`;
    expect((await buyer.client.post(reinstateUrl, {})).statusCode).toBe(403);
    expect(await statusNow()).toBe('suspended');
    const reinstated = await operator.client.post(reinstateUrl, {});
    expect(reinstated.statusCode, reinstated.body).toBe(200);
    expect((await validate()).code).toBe('VALID');
    expect(await auditOf(t, 'license.reinstate', `license:${bought.licenseId}`)).toHaveLength(1);
    const again = await operator.client.post(reinstateUrl, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This license is not suspended.');
  });
});

describe('POST /api/admin/tools/:id with an update period', () => {
  it('sets the period and renewal prices with a fresh code (a renewal price is money), audited', async () => {
    const tool = await addTool(t, { name: 'Ledger Lens', priceInrPaise: 1499_00, priceUsdCents: 19_99 });
    const form = {
      ...TOOL_FORM,
      description: tool.description,
      activationLimit: '2',
      updatesMonths: '12m',
      renewalPriceINR: '599',
      renewalPriceUSD: '9',
    };
    const withoutCode = await operator.client.post(`/api/admin/tools/${tool.id}`, form);
    expect(withoutCode.statusCode).toBe(400);
    expect((await t.ctx.db.select().from(tools).where(eq(tools.id, tool.id)))[0]?.updatesMonths).toBeNull();

    t.clock.advance(30_000);
    const saved = await operator.client.post(`/api/admin/tools/${tool.id}`, {
      ...form,
      code: await totpAt(t, operator.secret),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<AdminTool>()).toMatchObject({
      updatesMonths: 12,
      renewalPricePaise: 599_00,
      renewalPriceCents: 9_00,
    });
    const [audit] = await auditOf(t, 'tool.update', `tool:${tool.id}`);
    expect(audit?.after).toMatchObject({ updatesMonths: 12 });

    // Back to lifetime: the renewal prices unchanged, so no code is needed.
    const lifetime = await operator.client.post(`/api/admin/tools/${tool.id}`, {
      ...form,
      updatesMonths: 'lifetime',
    });
    expect(lifetime.statusCode, lifetime.body).toBe(200);
    expect(lifetime.json<AdminTool>().updatesMonths).toBeNull();
  });
});
