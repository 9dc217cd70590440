import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import { appWithSmtp } from '../../../test/support/file-apps';
import { pdfText } from '../../../test/support/invoices-helpers';
import { fingerprint, licenseApiCall } from '../../../test/support/license-fixtures';
import { deliverDueMail } from '../../../test/support/mail';
import {
  addPercentCoupon,
  addTool,
  buyThroughEmulator,
  createOrder,
  createShopTestApp,
  createUser,
  emulatorCheckout,
  loginAs,
  MAHARASHTRA_BUSINESS_BILLING,
  MAHARASHTRA_GSTIN,
  newBuyer,
  orderRow,
} from '../../../test/support/shop-fixtures';
import { seatMember } from '../../../test/support/team-fixtures';
import type { MyLicense } from '../../shared/licenses';
import type { OrderHistoryOrder } from '../../shared/order-history';
import type { PurchasedTool } from '../../shared/shop';
import { TEAM_INVITATION_PATH, TEAM_MESSAGES, type Team } from '../../shared/teams';
import { invoices } from '../db/schema/invoices';
import { licenses } from '../db/schema/licenses';
import { orderEvents, orders } from '../db/schema/orders';
import { gstr1Report } from '../invoices/gstr1';
import { cliActor } from '../operator/audit';
import { refundOrder } from '../orders/refund';
import { freeSeatsBeyondPaid } from './operator';

const { t, smtp } = appWithSmtp(createShopTestApp);
let toolId: string;
const desks = [fingerprint('desk'), fingerprint('desk'), fingerprint('desk'), fingerprint('desk')];

beforeAll(async () => {
  toolId = (await addTool(t, { name: 'Ledger Lens', device: 'Windows', priceInrPaise: 1000_00 })).id;
  await addPercentCoupon(t, 'FIRM-10', 10, 'team-tests');
});

const flat = (text: string) => text.replace(/\s+/g, ' ');

async function licenseCall(action: 'activate' | 'validate', licenseKey: string, fingerprint: string) {
  const response = await licenseApiCall(t, action, { licenseKey, toolId, fingerprint });
  return response.json<{ code: string; valid: boolean }>();
}

/** Sends what the outbox holds through the real SMTP server and returns the invitation link's token for `email`. */
async function invitationToken(email: string): Promise<string> {
  await deliverDueMail(t.ctx);
  const mail = await smtp.waitFor(
    (each) => each.to.includes(email) && each.subject.includes('An invitation to use'),
  );
  const match = mail.text.match(new RegExp(`${t.baseUrl}${TEAM_INVITATION_PATH}([A-Za-z0-9_-]+)`));
  expect(match, mail.text).toBeTruthy();
  return match?.[1] ?? '';
}

async function myLicenseKey(client: TestClient): Promise<string> {
  const mine = (await client.get('/api/my-licenses/')).json<MyLicense[]>();
  const license = mine.find((each) => each.toolId === toolId);
  expect(license?.licenseKey).toBeTruthy();
  return license?.licenseKey ?? '';
}

/** A team license's seats as the database holds them. */
async function seatsOf(licenseId: string | undefined): Promise<number | undefined> {
  const [row] = await t.ctx.db
    .select({ seats: licenses.seats })
    .from(licenses)
    .where(eq(licenses.id, licenseId ?? ''));
  return row?.seats;
}

describe('team licenses', () => {
  it('sells 5 seats on one invoice and GSTR-1 line, gives seats by email, takes one back and gives it again', async () => {
    const owner = await newBuyer(t);
    const quote = await owner.client.post('/api/checkout/quote', {
      toolId,
      currency: 'INR',
      state: 'Maharashtra',
      gstin: MAHARASHTRA_GSTIN,
      couponCode: 'FIRM-10',
      seats: 5,
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const quoted = quote.json<{ listPrice: number; discount: number; taxableValue: number; total: number }>();
    expect(quoted).toMatchObject({ listPrice: 5000_00, discount: 500_00, total: 4500_00 });

    const order = await buyThroughEmulator(t, owner.client, toolId, {
      billingDetails: MAHARASHTRA_BUSINESS_BILLING,
      couponCode: 'FIRM-10',
      seats: 5,
    });
    expect(order).toMatchObject({ status: 'paid', amount: quoted.total, seats: 5, listPrice: 5000_00 });

    // The invoice: "5 ×" the unit price, the discount, IGST on the discounted value, the total charged.
    const summary = (await owner.client.get('/api/orders/'))
      .json<OrderHistoryOrder[]>()
      .find((o) => o.id === order.id);
    const pdf = await owner.client.get(summary?.invoiceUrl ?? '');
    expect(pdf.statusCode).toBe(200);
    const text = flat(await pdfText(pdf.rawPayload));
    expect(text).toContain('5 × ₹1,000.00 (incl. GST)');
    expect(text).toContain('Less discount (coupon FIRM-10)');
    expect(text).toContain(
      `Taxable value ₹${(quoted.taxableValue / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`,
    );
    expect(text).toContain('IGST @ 18%');
    expect(text).toContain('₹4,500.00');

    // GSTR-1: one B2B line for the 5-seat invoice, with the discounted taxable value.
    const [invoice] = await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, order.id));
    const day = invoice?.issuedAt.toISOString().slice(0, 10) ?? '';
    const report = await gstr1Report(t.ctx, { from: day, to: day });
    expect(report.b2b.filter((line) => line.buyerGstin === MAHARASHTRA_GSTIN)).toEqual([
      expect.objectContaining({ taxableValue: quoted.taxableValue, total: 4500_00 }),
    ]);

    // My Tools names the team; the team starts with the owner's own seat.
    const listed = (await owner.client.get('/api/my-tools/')).json<PurchasedTool[]>();
    const team = listed.find((tool) => tool._id === toolId)?.team;
    expect(team).toMatchObject({ seats: 5, seatsUsed: 1 });
    const licenseId = team?.licenseId ?? '';
    const teamUrl = `/api/teams/${licenseId}`;

    // Two colleagues are invited, accept and activate their own keys.
    const colleagues = [await newBuyer(t), await newBuyer(t)];
    for (const colleague of colleagues) {
      const invited = await owner.client.post(`${teamUrl}/invitations`, { email: colleague.user.email });
      expect(invited.statusCode, invited.body).toBe(201);
    }
    const again = await owner.client.post(`${teamUrl}/invitations`, { email: colleagues[0]?.user.email });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(TEAM_MESSAGES.alreadyInvited);
    const keys: string[] = [];
    for (const colleague of colleagues) {
      const token = await invitationToken(colleague.user.email);
      const preview = await (await t.client()).get(`/api/team-invitations/${token}`);
      expect(preview.json()).toMatchObject({ toolName: 'Ledger Lens', email: colleague.user.email });
      const accepted = await colleague.client.post(`/api/team-invitations/${token}/accept`, {});
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toMatchObject({ toolId });
      expect((await colleague.client.post(`/api/team-invitations/${token}/accept`, {})).statusCode).toBe(404);
      const tools = (await colleague.client.get('/api/my-tools/')).json<PurchasedTool[]>();
      expect(tools.find((tool) => tool._id === toolId)?.teamOwner).toEqual({ name: owner.user.name });
      const key = await myLicenseKey(colleague.client);
      expect((await licenseCall('activate', key, desks[keys.length] ?? '')).code).toBe('VALID');
      keys.push(key);
    }
    expect(new Set([...keys, await myLicenseKey(owner.client)]).size).toBe(3);
    await deliverDueMail(t.ctx);
    await smtp.waitFor((mail) => mail.to.includes(owner.user.email) && mail.subject.includes('joined your'));

    const seen = (await owner.client.get(teamUrl)).json<Team>();
    expect(seen).toMatchObject({ seats: 5, seatsUsed: 3, invitations: [] });
    expect(seen.members.map((member) => [member.email, member.isOwner, member.devices.length])).toEqual([
      [owner.user.email, true, 0],
      [colleagues[0]?.user.email, false, 1],
      [colleagues[1]?.user.email, false, 1],
    ]);
    // Someone else's team is not found.
    expect((await colleagues[0]?.client.get(teamUrl))?.statusCode).toBe(404);

    // The owner takes the first colleague's seat back: that key answers REVOKED at once.
    const leaving = colleagues[0]?.user.id ?? '';
    expect((await owner.client.request('DELETE', `${teamUrl}/members/${owner.user.id}`)).statusCode).toBe(
      409,
    );
    expect((await owner.client.request('DELETE', `${teamUrl}/members/${leaving}`)).statusCode).toBe(204);
    expect((await licenseCall('validate', keys[0] ?? '', desks[0] ?? '')).code).toBe('REVOKED');
    expect((await licenseCall('validate', keys[1] ?? '', desks[1] ?? '')).code).toBe('VALID');
    await deliverDueMail(t.ctx);
    await smtp.waitFor(
      (mail) => mail.to.includes(colleagues[0]?.user.email ?? '') && mail.subject.includes('has ended'),
    );
    const gone = (await colleagues[0]?.client.get('/api/my-tools/'))?.json<PurchasedTool[]>();
    expect(gone?.some((tool) => tool._id === toolId)).toBe(false);

    // The freed seat goes to a third colleague; then the team is full.
    const third = await newBuyer(t);
    expect((await owner.client.post(`${teamUrl}/invitations`, { email: third.user.email })).statusCode).toBe(
      201,
    );
    const thirdToken = await invitationToken(third.user.email);
    expect((await third.client.post(`/api/team-invitations/${thirdToken}/accept`, {})).statusCode).toBe(200);
    expect((await licenseCall('activate', await myLicenseKey(third.client), desks[3] ?? '')).code).toBe(
      'VALID',
    );
    const fourth = await owner.client.post(`${teamUrl}/invitations`, { email: 'fourth@example.com' });
    expect(fourth.statusCode).toBe(201);
    expect(
      (await owner.client.post(`${teamUrl}/invitations`, { email: 'fifth@example.com' })).statusCode,
    ).toBe(201);
    const full = await owner.client.post(`${teamUrl}/invitations`, { email: 'sixth@example.com' });
    expect(full.statusCode).toBe(409);
    expect(full.json<{ message: string }>().message).toBe(TEAM_MESSAGES.noFreeSeat);
    // Cancelling an invitation frees its seat.
    const pending = (await owner.client.get(teamUrl)).json<Team>();
    expect(pending.seatsUsed).toBe(5);
    const cancel = await owner.client.request(
      'DELETE',
      `${teamUrl}/invitations/${pending.invitations[0]?.id}`,
    );
    expect(cancel.statusCode).toBe(204);
    expect((await owner.client.get(teamUrl)).json<Team>().seatsUsed).toBe(4);

    // Add seats: its own order and invoice; the team grows.
    const added = await buyThroughEmulator(t, owner.client, toolId, {
      billingDetails: MAHARASHTRA_BUSINESS_BILLING,
      seats: 2,
      teamLicenseId: licenseId,
    });
    expect(added).toMatchObject({ status: 'paid', amount: 2000_00, seats: 2 });
    expect((await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, added.id))).length).toBe(1);
    expect((await owner.client.get(teamUrl)).json<Team>()).toMatchObject({ seats: 7, seatsUsed: 4 });
    expect(await seatsOf(licenseId)).toBe(7);
  }, 180_000);

  it('adds seats only to a team the buyer owns', async () => {
    const stranger = await newBuyer(t);
    const owner = await newBuyer(t);
    await buyThroughEmulator(t, owner.client, toolId, { seats: 2 });
    const team = (await owner.client.get('/api/my-tools/')).json<PurchasedTool[]>()[0]?.team;
    const refused = await stranger.client.post('/api/create-payment/', {
      toolId,
      currency: 'INR',
      billingDetails: { ...MAHARASHTRA_BUSINESS_BILLING, gstin: '' },
      seats: 1,
      teamLicenseId: team?.licenseId,
    });
    expect(refused.statusCode, refused.body).toBe(404);
    const me = await loginAs(t, owner.user);
    expect((await me.get(`/api/teams/${team?.licenseId}`)).statusCode).toBe(200);
  });

  it('takes back the seats of a refunded Add-seats order, and only those', async () => {
    const owner = await newBuyer(t);
    await buyThroughEmulator(t, owner.client, toolId, { seats: 2 });
    const licenseId = (await owner.client.get('/api/my-tools/')).json<PurchasedTool[]>()[0]?.team?.licenseId;
    const added = await buyThroughEmulator(t, owner.client, toolId, {
      billingDetails: MAHARASHTRA_BUSINESS_BILLING,
      seats: 3,
      teamLicenseId: licenseId,
    });
    expect(await seatsOf(licenseId)).toBe(5);
    await refundOrder(t.ctx, { orderId: added.id, source: 'admin', reason: 'Seats not needed' });
    expect(await seatsOf(licenseId)).toBe(2);
  }, 120_000);

  it('says how many stand beyond the paid seats after an Add-seats refund, and frees the newest for the operator', async () => {
    const owner = await newBuyer(t);
    await buyThroughEmulator(t, owner.client, toolId, { seats: 2 });
    const licenseId =
      (await owner.client.get('/api/my-tools/')).json<PurchasedTool[]>()[0]?.team?.licenseId ?? '';
    const added = await buyThroughEmulator(t, owner.client, toolId, { seats: 2, teamLicenseId: licenseId });
    const first = await seatMember(t, owner.client, licenseId);
    const second = await seatMember(t, owner.client, licenseId);
    expect(first).not.toBe(second);
    await owner.client.post(`/api/teams/${licenseId}/invitations`, { email: 'late-colleague@example.com' });
    expect((await owner.client.get(`/api/teams/${licenseId}`)).json<Team>()).toMatchObject({
      seats: 4,
      seatsUsed: 4,
    });

    const refund = await refundOrder(t.ctx, {
      orderId: added.id,
      source: 'admin',
      reason: 'Seats not needed',
    });
    expect(refund.seatsBeyondPaid).toEqual({ teamLicenseId: licenseId, seats: 2, used: 4 });

    const freed = await freeSeatsBeyondPaid(t.ctx, { teamLicenseId: licenseId }, cliActor('ops'));
    expect(freed.invitationsCancelled).toBe(1);
    expect(freed.membersFreed).toHaveLength(1);
    const team = (await owner.client.get(`/api/teams/${licenseId}`)).json<Team>();
    expect(team).toMatchObject({ seats: 2, seatsUsed: 2 });
    // The newest member went; the first one keeps the seat.
    expect(team.members.map((member) => member.email)).not.toContain(freed.membersFreed[0]?.email);
    await expect(licenseCall('validate', second, fingerprint('x'))).resolves.toMatchObject({
      code: 'REVOKED',
    });
    await expect(freeSeatsBeyondPaid(t.ctx, { teamLicenseId: licenseId }, cliActor('ops'))).rejects.toThrow(
      'nothing stands beyond them',
    );
  }, 120_000);

  it('gives back an Add-seats payment that arrives after its team was refunded; the team gains no seat', async () => {
    const owner = await newBuyer(t);
    await buyThroughEmulator(t, owner.client, toolId, { seats: 2 });
    const licenseId = (await owner.client.get('/api/my-tools/')).json<PurchasedTool[]>()[0]?.team?.licenseId;
    const created = await createOrder(owner.client, toolId, 'INR', {
      billingDetails: MAHARASHTRA_BUSINESS_BILLING,
      seats: 3,
      teamLicenseId: licenseId,
    });
    expect(created.statusCode, created.body).toBe(200);
    const razorpayOrderId = created.json<{ order_id: string }>().order_id;

    // The team's own order is refunded while the Add-seats checkout is open.
    const [teamOrder] = await t.ctx.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, owner.user.id), isNull(orders.licenseId)));
    await refundOrder(t.ctx, { orderId: teamOrder?.id ?? '', source: 'admin', reason: 'Firm closed' });
    const seatsAfterRefund = await seatsOf(licenseId);

    const paid = await emulatorCheckout(t, razorpayOrderId);
    const payment = (await paid.json()) as { razorpay_payment_id: string };
    expect((await owner.client.post('/api/verify-payment/', payment)).statusCode).toBe(409);
    await t.emulator?.settled();

    const order = await orderRow(t, razorpayOrderId);
    expect(order.status).toBe('refunded');
    expect(t.emulator?.payments.get(payment.razorpay_payment_id)?.status).toBe('refunded');
    const events = await t.ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.find((event) => event.kind === 'duplicate-payment')?.detail).toMatchObject({
      addsToLicenseId: licenseId,
    });
    expect(events.some((event) => event.kind === 'paid')).toBe(false);
    expect(await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, order.id))).toEqual([]);
    expect(await seatsOf(licenseId)).toBe(seatsAfterRefund);
  }, 120_000);
});

describe('invitation mail', () => {
  /** A two-seat team of a buyer named `name`: its URL and the owner's client. */
  async function teamOfOwnerNamed(name: string) {
    const user = await createUser(t, { name });
    const client = await loginAs(t, user);
    await buyThroughEmulator(t, client, toolId, { seats: 2 });
    const licenseId = (await client.get('/api/my-tools/')).json<PurchasedTool[]>()[0]?.team?.licenseId;
    return { client, teamUrl: `/api/teams/${licenseId}` };
  }

  /** Invites `email` and at once cancels the invitation, so the seat is free for the next one. */
  async function inviteAndCancel(owner: { client: TestClient; teamUrl: string }, email: string) {
    const invited = await owner.client.post(`${owner.teamUrl}/invitations`, { email });
    if (invited.statusCode === 201) {
      const { id } = invited.json<{ invitation: { id: string } }>().invitation;
      expect((await owner.client.request('DELETE', `${owner.teamUrl}/invitations/${id}`)).statusCode).toBe(
        204,
      );
    }
    return invited;
  }

  it('sends one address at most three invitations a day, whichever owners send them', async () => {
    const target = `often-invited-${Date.now()}@example.com`;
    const first = await teamOfOwnerNamed('First Owner');
    for (let i = 0; i < 3; i++) expect((await inviteAndCancel(first, target)).statusCode).toBe(201);
    const fourth = await inviteAndCancel(first, target);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.headers['retry-after']).toBeTruthy();
    expect(fourth.json<{ message: string }>().message).toBe(TEAM_MESSAGES.addressInvitedEnough);
    const second = await teamOfOwnerNamed('Second Owner');
    expect((await inviteAndCancel(second, target)).statusCode).toBe(429);
    // Other addresses are still invited.
    expect((await inviteAndCancel(second, `someone-else-${Date.now()}@example.com`)).statusCode).toBe(201);
  }, 120_000);

  it('lets one owner send at most ten invitations an hour', async () => {
    const owner = await teamOfOwnerNamed('Busy Owner');
    for (let i = 0; i < 10; i++)
      expect((await inviteAndCancel(owner, `colleague-${i}-${Date.now()}@example.com`)).statusCode).toBe(201);
    const eleventh = await inviteAndCancel(owner, `colleague-11-${Date.now()}@example.com`);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json<{ message: string }>().message).toBe(TEAM_MESSAGES.tooManyInvitations);
  }, 120_000);

  it("never puts the owner's name into the subject or a link: plain text, short, without addresses", async () => {
    const owner = await teamOfOwnerNamed(`Visit http://evil.example and www.bad.example ${'x'.repeat(90)}`);
    const email = `spam-target-${Date.now()}@example.com`;
    expect((await owner.client.post(`${owner.teamUrl}/invitations`, { email })).statusCode).toBe(201);
    await deliverDueMail(t.ctx);
    const mail = await smtp.waitFor((each) => each.to.includes(email));
    expect(mail.subject).toBe('An invitation to use Ledger Lens (Windows)');
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).not.toMatch(/evil|bad\.example|http:\/\/e|www\./);
      expect(part).not.toContain('x'.repeat(60));
    }
    expect(mail.text).toContain('Visit');
    // The one link is the invitation's own.
    const links = [...mail.html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);
    expect(links.length).toBe(1);
    expect(links[0]?.startsWith(`${t.baseUrl}${TEAM_INVITATION_PATH}`)).toBe(true);
  }, 120_000);
});
