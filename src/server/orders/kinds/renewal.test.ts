import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../../test/support/client';
import { shopTestAppForFile } from '../../../../test/support/file-apps';
import { pdfText } from '../../../../test/support/invoices-helpers';
import { fingerprint, licenseApiCall } from '../../../../test/support/license-fixtures';
import {
  addToolWithUpdatePeriod,
  DAY_0,
  dayOf,
  myLicenseOf,
} from '../../../../test/support/renewal-fixtures';
import {
  addTool,
  INR_BILLING,
  loginAs,
  newBuyer,
  payThroughEmulator,
} from '../../../../test/support/shop-fixtures';
import { seatMember } from '../../../../test/support/team-fixtures';
import type { CheckoutQuote } from '../../../shared/checkout-quote';
import type { MyLicense } from '../../../shared/licenses';
import type { OrderHistoryOrder } from '../../../shared/order-history';
import { addMonths, RENEWAL_MESSAGES } from '../../../shared/update-periods';
import { creditNotes, invoices } from '../../db/schema/invoices';
import { licenses } from '../../db/schema/licenses';
import type { TaxDocument } from '../../invoices/document';
import { refundOrder } from '../refund';

/**
 * Issue 65's renewals, on whichever database the run uses: a tool sold with 12 months of updates (₹599 to renew); a
 * license bought on day 0 has updates until day 0 + 12 months and validates for ever; a renewal paid before the end
 * (or within 30 days after) extends from the end, one paid later from its own day; its refund puts the end back.
 */

const t = shopTestAppForFile();
let toolId: string;

beforeAll(async () => {
  t.clock.set(DAY_0);
  toolId = await addToolWithUpdatePeriod(
    t,
    { name: 'PDF Tool', device: 'Windows', priceInrPaise: 1499_00, activationLimit: 2 },
    'renewal-test',
    '9',
  );
}, 120_000);

const onDay = (day: number) => t.clock.set(dayOf(day));
/** A session of `user` on the current day (one from day 0 has long expired by day 380). */
const signedIn = (user: { id: string }) => loginAs(t, user);
const flat = (text: string) => text.replace(/\s+/g, ' ');

async function validate(licenseKey: string, machine: string) {
  const response = await licenseApiCall(t, 'validate', { licenseKey, toolId, fingerprint: machine });
  return response.json<{ code: string; updatesUntil?: string | null }>();
}

async function buyAndActivate() {
  onDay(0);
  const buyer = await newBuyer(t);
  await payThroughEmulator(t, buyer.client, { toolId, currency: 'INR', billingDetails: INR_BILLING });
  const license = await myLicense(buyer.client);
  const machine = fingerprint('office');
  const activated = await licenseApiCall(t, 'activate', {
    licenseKey: license.licenseKey,
    toolId,
    fingerprint: machine,
  });
  expect(activated.json<{ code: string }>().code).toBe('VALID');
  return { ...buyer, license, machine };
}

const myLicense = (client: TestClient) => myLicenseOf(client, toolId);

const renewalOf = (license: MyLicense) => ({
  renewLicenseId: license.licenseId,
  currency: 'INR',
  billingDetails: INR_BILLING,
});

describe('updates for a period and renewals', () => {
  it('ends updates 12 months after the purchase, validates for ever, renews from the end and refunds back', async () => {
    const { user, client: firstClient, license, machine } = await buyAndActivate();
    let client = firstClient;
    const end = addMonths(DAY_0, 12);
    expect(license.updatesUntil).toBe(end.toISOString());
    // Not offered, nor sold, until 60 days before the end.
    expect(license.renewal).toBeNull();
    const early = await client.post('/api/checkout/quote', {
      renewLicenseId: license.licenseId,
      currency: 'INR',
      state: 'Rajasthan',
    });
    expect(early.statusCode).toBe(409);
    expect(early.json<{ message: string }>().message).toMatch(/^Renewal opens 60 days before/);

    onDay(400);
    expect(await validate(license.licenseKey ?? '', machine)).toMatchObject({
      code: 'VALID',
      updatesUntil: end.toISOString(),
    });

    onDay(380);
    client = await signedIn(user);
    const offered = await myLicense(client);
    expect(offered.renewal).toEqual({ amount: 599_00, currency: 'INR', months: 12 });
    const quote = await client.post('/api/checkout/quote', {
      renewLicenseId: license.licenseId,
      currency: 'INR',
      state: 'Rajasthan',
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const quoted = quote.json<CheckoutQuote>();
    expect(quoted.total).toBe(599_00);
    expect(quoted.taxableValue + quoted.taxes.reduce((sum, tax) => sum + tax.amount, 0)).toBe(599_00);

    const renewal = await payThroughEmulator(t, client, renewalOf(license));
    expect(renewal).toMatchObject({ status: 'paid', kind: 'renewal', amount: 599_00 });
    const renewedTo = addMonths(end, 12);
    expect((await myLicense(client)).updatesUntil).toBe(renewedTo.toISOString());
    expect(await validate(license.licenseKey ?? '', machine)).toMatchObject({
      updatesUntil: renewedTo.toISOString(),
    });

    // Its own tax invoice: the period it covers, the price, the GST split, the total.
    const listed = (await client.get('/api/orders/'))
      .json<OrderHistoryOrder[]>()
      .find((order) => order.id === renewal.id);
    const text = flat(await pdfText((await client.get(listed?.invoiceUrl ?? '')).rawPayload));
    // The PDF wraps the line in its column; the stored document holds it whole.
    expect(text).toContain('Updates for 12 months: PDF Tool (Windows), 3 Mar 2027 – 2');
    const [invoice] = await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, renewal.id));
    expect((invoice?.document as TaxDocument | undefined)?.item.description).toBe(
      'Updates for 12 months: PDF Tool (Windows), 3 Mar 2027 – 2 Mar 2028',
    );
    expect(text).toContain('Total (INR) ₹599.00');

    // A refund of the renewal: its credit note alone, and the end of updates back where it was.
    await refundOrder(t.ctx, { orderId: renewal.id, source: 'admin', reason: 'Bought by mistake' });
    const [note] = await t.ctx.db.select().from(creditNotes).where(eq(creditNotes.orderId, renewal.id));
    expect(note?.total).toBe(599_00);
    expect((await myLicense(client)).updatesUntil).toBe(end.toISOString());
    expect(await validate(license.licenseKey ?? '', machine)).toMatchObject({
      code: 'VALID',
      updatesUntil: end.toISOString(),
    });
  });

  it('renews from the day of payment after the 30 days of grace', async () => {
    const { user, license } = await buyAndActivate();
    onDay(500);
    const client = await signedIn(user);
    const renewal = await payThroughEmulator(t, client, renewalOf(license));
    expect((await myLicense(client)).updatesUntil).toBe(addMonths(dayOf(500), 12).toISOString());
    expect(renewal.amount).toBe(599_00);
  });

  it('renews every seat of a team for the renewal price times its seats', async () => {
    onDay(0);
    const owner = await newBuyer(t);
    await payThroughEmulator(t, owner.client, {
      toolId,
      currency: 'INR',
      billingDetails: INR_BILLING,
      seats: 3,
    });
    const team = await myLicense(owner.client);
    const memberKey = await seatMember(t, owner.client, team.licenseId);
    onDay(360);
    const ownerClient = await signedIn(owner.user);
    expect((await myLicense(ownerClient)).renewal).toEqual({
      amount: 3 * 599_00,
      currency: 'INR',
      months: 12,
    });
    const renewal = await payThroughEmulator(t, ownerClient, renewalOf(team));
    expect(renewal).toMatchObject({ seats: 3, amount: 3 * 599_00 });
    const renewedTo = addMonths(addMonths(DAY_0, 12), 12).toISOString();
    const machine = fingerprint('member');
    await t.app.inject({
      method: 'POST',
      url: '/api/licenses/activate',
      headers: { 'content-type': 'application/json' },
      payload: { licenseKey: memberKey, toolId, fingerprint: machine },
    });
    expect(await validate(memberKey, machine)).toMatchObject({ code: 'VALID', updatesUntil: renewedTo });
  });

  it('refuses a renewal of a license with lifetime updates and of another buyer’s license', async () => {
    const lifetime = await addTool(t, { name: 'Lifetime Tool', priceInrPaise: 999_00 });
    onDay(0);
    const buyer = await newBuyer(t);
    await payThroughEmulator(t, buyer.client, {
      toolId: lifetime.id,
      currency: 'INR',
      billingDetails: INR_BILLING,
    });
    const own = (await buyer.client.get('/api/my-licenses/'))
      .json<MyLicense[]>()
      .find((each) => each.toolId === lifetime.id);
    expect(own).toMatchObject({ updatesUntil: null, renewal: null });
    const refused = await buyer.client.post('/api/checkout/quote', {
      renewLicenseId: own?.licenseId,
      currency: 'INR',
      state: 'Rajasthan',
    });
    expect(refused.json<{ message: string }>().message).toBe(RENEWAL_MESSAGES.lifetime);

    const { license } = await buyAndActivate();
    onDay(380);
    const stranger = await newBuyer(t);
    expect(
      (
        await stranger.client.post('/api/checkout/quote', {
          renewLicenseId: license.licenseId,
          currency: 'INR',
          state: 'Rajasthan',
        })
      ).statusCode,
    ).toBe(404);
    const [row] = await t.ctx.db
      .select({ until: licenses.updatesUntil })
      .from(licenses)
      .where(eq(licenses.id, license.licenseId));
    expect(row?.until?.toISOString()).toBe(addMonths(DAY_0, 12).toISOString());
  });
});
