import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD, signUp, uniqueIp } from '../../../test/support/auth-helpers';
import type { TestClient } from '../../../test/support/client';
import { verifiedOperator } from '../../../test/support/dashboard-helpers';
import { columnsHolding } from '../../../test/support/database';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { pdfText } from '../../../test/support/invoices-helpers';
import { fingerprint, licenseApiCall } from '../../../test/support/license-fixtures';
import { deliverDueMail } from '../../../test/support/mail';
import { addTool, buyThroughEmulator } from '../../../test/support/shop-fixtures';
import type { LicenseAnswer, MyLicense } from '../../shared/licenses';
import type { OrderHistoryOrder } from '../../shared/order-history';
import { POLICY_CONSENT, PRIVACY_POLICY_VERSION } from '../../shared/privacy';
import { consents, passkeys, users } from '../db/schema/accounts';
import { outbox } from '../db/schema/mail';
import { auditLog } from '../db/schema/operator';
import { orders } from '../db/schema/orders';
import { gstr1Csv, gstr1Report } from '../invoices/gstr1';
import { refundOrder } from '../orders/refund';
import type { AccountExport } from './data-export';

const t = shopTestAppForFile();
const toolIds: string[] = [];

beforeAll(async () => {
  for (const name of ['Ledger Cleaner', 'Invoice Batcher', 'GST Reconciler']) {
    toolIds.push((await addTool(t, { name, device: 'Windows', priceInrPaise: 1499_00 })).id);
  }
});

type Buyer = {
  client: TestClient;
  id: string;
  name: string;
  email: string;
  phone: string;
  orderIds: string[];
  licenseKey: string;
  toolId: string;
};

const tool = (index: number) => toolIds[index] ?? '';

/** One API call of a desktop tool, from its own address. */
async function licenseCall(action: 'activate' | 'validate', body: Record<string, string>) {
  const response = await licenseApiCall(t, action, body, uniqueIp());
  return response.json<LicenseAnswer>();
}

/**
 * A buyer signed up through the real flow (so consents are recorded) with two paid orders, one of them refunded,
 * a device on the other's license, and a contact message sent from the account's address; mail delivered.
 */
async function buyerWithHistory(label: string): Promise<Buyer> {
  const tag = randomBytes(4).toString('hex');
  const name = `Zubin ${label} Quasimodo${tag}`;
  const email = `Zubin.${label}.${tag}@Example.COM`;
  const phone = `+9198${String(Number.parseInt(tag, 16) % 100_000_000).padStart(8, '0')}`;
  const client = await t.client({ ip: uniqueIp() });
  const signed = await signUp(t, client, { name, email, phone });
  expect(signed.statusCode, signed.body).toBe(200);
  const [user] = await t.ctx.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  const kept = await buyThroughEmulator(t, client, tool(0));
  const refunded = await buyThroughEmulator(t, client, tool(1));
  await refundOrder(t.ctx, { orderId: refunded.id, source: 'admin', reason: 'Bought by mistake' });
  const [license] = (await client.get('/api/my-licenses/')).json<MyLicense[]>();
  const licenseKey = license?.licenseKey ?? '';
  const activated = await licenseCall('activate', {
    licenseKey,
    toolId: tool(0),
    fingerprint: fingerprint(),
    name: `${label} laptop ${tag}`,
  });
  expect(activated.code).toBe('VALID');
  const contact = await client.post('/api/contact', {
    name,
    email,
    relatedTo: 'Services',
    description: `Question from ${label} about the ledger cleaner.`,
  });
  expect(contact.statusCode, contact.body).toBe(200);
  await deliverDueMail(t.ctx);
  return {
    client,
    id: user?.id ?? '',
    name,
    email,
    phone,
    orderIds: [kept.id, refunded.id],
    licenseKey,
    toolId: tool(0),
  };
}

async function exportOf(client: TestClient) {
  const response = await client.get('/api/account/export');
  expect(response.statusCode, response.body).toBe(200);
  return { response, data: response.json<AccountExport>() };
}

const whereFound = (needle: string) => columnsHolding(t.ctx.db, needle);

async function gstr1(): Promise<string> {
  return gstr1Csv(await gstr1Report(t.ctx, { from: '2020-04-01', to: '2040-03-31' }));
}

describe('Download my data', () => {
  it('holds every order, document, license, device, message, email and consent of the account and no other', async () => {
    const buyer = await buyerWithHistory('export');
    const other = await buyerWithHistory('other');

    const { response, data } = await exportOf(buyer.client);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="pinkcity-data-.+\.json"/);
    expect(response.headers['cache-control']).toBe('no-store');

    expect(data.profile).toMatchObject({ name: buyer.name, email: buyer.email, phone: buyer.phone });
    expect(data.profile.emailPreferences).toEqual({
      releases: true,
      trials: true,
      checkoutReminders: true,
      renewalReminders: true,
    });
    expect(data.signIns.length).toBeGreaterThanOrEqual(1);
    expect(data.orders.map((order) => order.id).sort()).toEqual([...buyer.orderIds].sort());
    expect(data.orders.map((order) => order.status).sort()).toEqual(['paid', 'refunded']);
    expect(data.invoices).toHaveLength(2);
    expect(data.invoices[0]?.number).toMatch(/^PCA\/\d{2}-\d{2}\/\d{5}$/);
    expect(data.invoices[0]?.issuedTo.name).toBe(buyer.name);
    expect(data.creditNotes).toHaveLength(1);
    expect(data.creditNotes[0]).toMatchObject({ orderId: buyer.orderIds[1], total: 1499 });
    expect(data.licenses).toHaveLength(2);
    const live = data.licenses.find((license) => license.licenseKey === buyer.licenseKey);
    expect(live?.status).toBe('active');
    expect(live?.devices).toHaveLength(1);
    expect(live?.devices[0]?.name).toContain('export laptop');
    expect(data.licenses.find((license) => license !== live)?.status).toBe('revoked');
    expect(data.contactMessages).toHaveLength(1);
    expect(data.contactMessages[0]?.message).toContain('Question from export');
    const subjects = data.emails.map((mail) => mail.subject);
    expect(subjects).toEqual(expect.arrayContaining(['Your verification code']));
    expect(data.emails.some((mail) => String(mail.subject).startsWith('Refund for your'))).toBe(true);
    expect(data.emails.length).toBeGreaterThanOrEqual(5);
    expect(data.consents).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: POLICY_CONSENT, version: PRIVACY_POLICY_VERSION, withdrawnAt: null }),
        expect.objectContaining({ kind: 'email:releases', withdrawnAt: null }),
      ]),
    );
    expect(data.sharedWith.map((processor) => processor.name).join(' ')).toContain('Razorpay');
    expect(data.summary).toContain('2 orders, 2 tax invoices, 1 credit note');

    const text = response.body.toLowerCase();
    for (const foreign of [
      other.email,
      other.name,
      other.phone,
      other.id,
      ...other.orderIds,
      other.licenseKey,
    ]) {
      expect(text).not.toContain(foreign.toLowerCase());
    }
  });

  it('records an email preference turned off and on again as a consent withdrawn and given anew', async () => {
    const buyer = await buyerWithHistory('consent');
    await buyer.client.request('PATCH', '/api/account/email-preferences', { trials: false });
    await buyer.client.request('PATCH', '/api/account/email-preferences', { trials: true });
    const rows = await t.ctx.db.select().from(consents).where(eq(consents.userId, buyer.id));
    const trials = rows.filter((row) => row.kind === 'email:trials');
    expect(trials).toHaveLength(2);
    expect(trials.filter((row) => row.withdrawnAt !== null)).toHaveLength(1);
    expect(trials.filter((row) => row.withdrawnAt === null)).toHaveLength(1);
  });

  it('answers a buyer with a hundred orders well within a second, and nobody signed out', async () => {
    const buyer = await buyerWithHistory('hundred');
    const [template] = await t.ctx.db
      .select()
      .from(orders)
      .where(eq(orders.id, buyer.orderIds[0] ?? ''));
    if (!template) throw new Error('no order');
    const { id: _, razorpayOrderId: __, razorpayPaymentId: ___, ...rest } = template;
    await t.ctx.db.insert(orders).values(
      Array.from({ length: 98 }, (_, index) => ({
        ...rest,
        status: 'failed' as const,
        razorpayOrderId: `order_bulk${index}${randomBytes(4).toString('hex')}`,
      })),
    );
    const started = performance.now();
    const { data } = await exportOf(buyer.client);
    const elapsed = performance.now() - started;
    expect(data.orders).toHaveLength(100);
    expect(elapsed).toBeLessThan(1000);

    const stranger = await t.client();
    expect((await stranger.get('/api/account/export')).statusCode).toBe(401);
  });
});

describe('Delete my account', () => {
  it('refuses a wrong password, a wrong email and a request without the CSRF token, changing nothing', async () => {
    const buyer = await buyerWithHistory('refused');
    const before = await t.ctx.db.select().from(users).where(eq(users.id, buyer.id));

    const wrongPassword = await buyer.client.post('/api/account/delete', {
      password: 'not the password',
      email: buyer.email,
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toMatchObject({
      code: 'wrong_password',
      fieldErrors: { password: expect.any(String) },
    });

    const wrongEmail = await buyer.client.post('/api/account/delete', {
      password: DEFAULT_PASSWORD,
      email: 'someone.else@example.com',
    });
    expect(wrongEmail.statusCode).toBe(400);
    expect(wrongEmail.json()).toMatchObject({
      code: 'wrong_email',
      fieldErrors: { email: expect.any(String) },
    });

    buyer.client.sendCsrfHeader = false;
    const forged = await buyer.client.post('/api/account/delete', {
      password: DEFAULT_PASSWORD,
      email: buyer.email,
    });
    expect(forged.statusCode).toBe(403);
    buyer.client.sendCsrfHeader = true;

    const stranger = await t.client();
    const signedOut = await stranger.post('/api/account/delete', {
      password: DEFAULT_PASSWORD,
      email: buyer.email,
    });
    expect(signedOut.statusCode).toBe(401);

    expect(await t.ctx.db.select().from(users).where(eq(users.id, buyer.id))).toEqual(before);
    expect(
      (
        await licenseCall('validate', {
          licenseKey: buyer.licenseKey,
          toolId: buyer.toolId,
          fingerprint: fingerprint(),
        })
      ).code,
    ).toBe('NOT_ACTIVATED');
  });

  it('erases the account in one go: license revoked, personal data gone everywhere, tax documents kept', async () => {
    const buyer = await buyerWithHistory('erased');
    const machine = fingerprint();
    /** The license API's answer code for the buyer's license on `machine`. */
    const onMachine = async (action: 'activate' | 'validate') =>
      (
        await licenseCall(action, {
          licenseKey: buyer.licenseKey,
          toolId: buyer.toolId,
          fingerprint: machine,
        })
      ).code;
    expect(await onMachine('activate')).toBe('VALID');
    // Validate once, so this instance remembers the license: the erasure must make it forget at once.
    expect(await onMachine('validate')).toBe('VALID');
    const [passwordRow] = await t.ctx.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.id, buyer.id));
    const passwordHash = passwordRow?.hash ?? '';
    // A passkey named after its owner, as people name them: it must go with the account.
    await t.ctx.db.insert(passkeys).values({
      userId: buyer.id,
      credentialId: randomBytes(16).toString('base64url'),
      publicKey: randomBytes(32).toString('base64url'),
      deviceType: 'multiDevice',
      name: `${buyer.name}'s phone`,
    });
    const ownOrders = (await buyer.client.get('/api/orders/')).json<OrderHistoryOrder[]>();
    const gstr1Before = await gstr1();

    // A signed-in browser elsewhere ends with the deletion too.
    const otherBrowser = await t.client({ ip: uniqueIp() });
    const login = await otherBrowser.post('/api/auth/login/', {
      email: buyer.email,
      password: DEFAULT_PASSWORD,
    });
    expect(login.statusCode, login.body).toBe(200);

    const deleted = await buyer.client.post('/api/account/delete', {
      password: DEFAULT_PASSWORD,
      email: `  ${buyer.email.toUpperCase()} `,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.headers['set-cookie']).toEqual(expect.stringContaining('sessionid=;'));
    for (const client of [buyer.client, otherBrowser]) {
      expect((await client.get('/api/auth/check/')).json()).toMatchObject({ loggedin: false });
    }

    expect(await onMachine('validate')).toBe('REVOKED');

    // The confirmation is queued for the address, sent, and then its row is gone too.
    const [confirmation] = await t.ctx.db.select().from(outbox).where(eq(outbox.kind, 'account-erased'));
    expect(confirmation?.to).toBe(buyer.email);
    await deliverDueMail(t.ctx);
    expect(await t.ctx.db.select().from(outbox).where(eq(outbox.kind, 'account-erased'))).toHaveLength(0);

    expect(await t.ctx.db.select().from(passkeys).where(eq(passkeys.userId, buyer.id))).toEqual([]);
    expect(await whereFound(buyer.email)).toEqual([]);
    expect(await whereFound(buyer.phone)).toEqual([]);
    expect(await whereFound(passwordHash)).toEqual([]);
    // The name stays only on the tax documents, as issued (72 months, CGST Act s. 36).
    expect(await whereFound(buyer.name)).toEqual(['credit_notes.document', 'invoices.document']);

    const operator = await verifiedOperator(t);
    for (const order of ownOrders) {
      const pdf = await operator.client.get(`/api/admin/orders/${order.id}/invoice.pdf`);
      expect(pdf.statusCode).toBe(200);
      const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
      expect(text).toContain(order.invoiceNumber ?? 'no number');
      expect(text).toContain('₹1,499.00');
      expect(text).toContain(buyer.name);
    }
    expect(await gstr1()).toBe(gstr1Before);

    const customer = (await operator.client.get(`/api/admin/customers/${buyer.id}`)).json<{
      erasedAt: string;
      name: string;
    }>();
    expect(customer.erasedAt).toEqual(expect.any(String));
    expect(customer.name).toBe('');
    const [entry] = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'account.erase'));
    expect(entry).toMatchObject({
      actor: 'buyer:self',
      target: `user:${buyer.id}`,
      before: null,
      after: null,
    });

    // The operator's copy of the export: the same document, audited.
    const copy = await operator.client.get(`/api/admin/customers/${buyer.id}/export`);
    expect(copy.statusCode).toBe(200);
    expect(copy.json<AccountExport>().profile.erasedAt).toEqual(expect.any(String));
    const [exported] = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'customer.export'));
    expect(exported).toMatchObject({ actor: operator.email, target: `user:${buyer.id}` });

    // The same address signs up again: a new, empty account.
    const again = await t.client({ ip: uniqueIp() });
    const signed = await signUp(t, again, { email: buyer.email });
    expect(signed.statusCode, signed.body).toBe(200);
    const { data } = await exportOf(again);
    expect(data.profile.email).toBe(buyer.email);
    expect(data.orders).toEqual([]);
    expect(data.licenses).toEqual([]);
    expect(data.contactMessages).toEqual([]);

    // Deleting twice is refused: the old session is gone, and the account row is erased.
    expect(
      (await buyer.client.post('/api/account/delete', { password: DEFAULT_PASSWORD, email: buyer.email }))
        .statusCode,
    ).toBe(401);
  }, 120_000);
});
