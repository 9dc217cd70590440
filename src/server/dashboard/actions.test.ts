import { createHash } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { freshTotp, uploadForm, verifiedOperator } from '../../../test/support/dashboard-helpers';
import { sharedForFile, shopTestAppForFile } from '../../../test/support/file-apps';
import { fingerprint } from '../../../test/support/license-fixtures';
import { addTool, buyThroughEmulator, newBuyer, TOOL_FORM } from '../../../test/support/shop-fixtures';
import type { AdminOrderDetail, AdminTool, CustomerDetail, InvoiceReport } from '../../shared/dashboard';
import { tools } from '../db/schema/catalogue';
import { contactMessages } from '../db/schema/contact';
import { licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { auditLog } from '../db/schema/operator';
import { orders, purchases } from '../db/schema/orders';
import { activateLicense } from '../licenses/activate';
import { revealLicenseKey } from '../licenses/secrets-at-rest';

/** Every dashboard action changes what it says, asks for a fresh code where it must, and is audited with it. */

const t = shopTestAppForFile();
const operator = sharedForFile(() => verifiedOperator(t));

const freshCode = () => freshTotp(t, operator.secret);

const lastAudit = async () => (await t.ctx.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0];

/** Fields of the tool form as typed. */
type ToolFields = Partial<Record<keyof typeof TOOL_FORM, string>>;

/** The tool form with some fields changed, and a fresh code (what a new tool or a new price asks for). */
const withFreshCode = async (fields: ToolFields = {}) => ({
  ...TOOL_FORM,
  ...fields,
  code: await freshCode(),
});

/** A new tool with a fresh code and some fields changed, which the dashboard refuses: its field errors. */
async function refusedNewTool(fields: ToolFields) {
  const response = await operator.client.post('/api/admin/tools', await withFreshCode(fields));
  expect(response.statusCode).toBe(400);
  return response.json().fieldErrors;
}

describe('tools', () => {
  let created: AdminTool;

  it('refuses a new tool without a fresh code, or with bad fields, and creates nothing', async () => {
    const before = (await t.ctx.db.select().from(tools)).length;
    const noCode = await operator.client.post('/api/admin/tools', TOOL_FORM);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().fieldErrors).toHaveProperty('code');
    expect(
      await refusedNewTool({ priceINR: '12.345', priceUSD: '', name: ' ', activationLimit: '0' }),
    ).toMatchObject({
      priceINR: 'At most two decimals (paise or cents).',
      name: 'Give the tool a name.',
      activationLimit: 'A whole number from 1 to 100.',
    });
    // A USD price it cannot read says why on its field (a union once answered "Invalid input"), and so does a device.
    expect(await refusedNewTool({ priceUSD: '7,99', device: 'Linux' })).toMatchObject({
      priceUSD: 'Not a price; write it like 499 or 7.99, without separators.',
      device: 'Choose Windows, macOS or none.',
    });
    expect((await refusedNewTool({ priceINR: '50', priceUSD: '' })).priceUSD).toMatch(
      /below Razorpay's 1.00 minimum/,
    );
    expect((await t.ctx.db.select().from(tools)).length).toBe(before);
  });

  it('creates a tool the site then lists, audited', async () => {
    const response = await operator.client.post('/api/admin/tools', await withFreshCode());
    expect(response.statusCode).toBe(200);
    created = response.json() as AdminTool;
    expect(created).toMatchObject({
      name: 'Ledger Lens',
      pricePaise: 149_900,
      priceCents: 1999,
      activationLimit: 3,
      file: null,
    });
    const site = await (await t.client()).get('/api/alltools/');
    expect(site.json().map((tool: { name: string }) => tool.name)).toContain('Ledger Lens');
    expect(await lastAudit()).toMatchObject({
      actor: operator.email,
      action: 'tool.create',
      target: `tool:${created.id}`,
    });
  });

  it('edits without a code unless the prices change', async () => {
    const renamed = await operator.client.post(`/api/admin/tools/${created.id}`, {
      ...TOOL_FORM,
      name: 'Ledger Lens Pro',
    });
    expect(renamed.statusCode).toBe(200);
    expect(await lastAudit()).toMatchObject({
      action: 'tool.update',
      before: { name: 'Ledger Lens' },
      after: { name: 'Ledger Lens Pro' },
    });
    const repriced = await operator.client.post(`/api/admin/tools/${created.id}`, {
      ...TOOL_FORM,
      priceINR: '999',
    });
    expect(repriced.statusCode).toBe(400);
    const [row] = await t.ctx.db.select().from(tools).where(eq(tools.id, created.id));
    expect(row?.priceInrPaise).toBe(149_900);
    const done = await operator.client.post(
      `/api/admin/tools/${created.id}`,
      await withFreshCode({
        priceINR: '999',
      }),
    );
    expect(done.json().pricePaise).toBe(99_900);
  });

  it('takes a download file streamed with a fresh code and shows its SHA-256', async () => {
    const content = Buffer.from('MZ fake installer bytes '.repeat(1000));
    const upload = async (code: string) => {
      const form = new FormData();
      form.set('code', code);
      form.set('file', new Blob([content]), 'ledger-lens-setup.exe');
      return uploadForm(t.baseUrl, operator.client, `/api/admin/tools/${created.id}/file`, form);
    };
    const refused = await upload('000000');
    expect(refused.status).toBe(400);
    expect((await t.ctx.db.select().from(tools).where(eq(tools.id, created.id)))[0]?.fileKey).toBeNull();
    const stored = await upload(await freshCode());
    expect(stored.status).toBe(200);
    const tool = (await stored.json()) as AdminTool;
    expect(tool.file).toEqual({
      name: 'ledger-lens-setup.exe',
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
    });
    const [row] = await t.ctx.db.select().from(tools).where(eq(tools.id, created.id));
    expect((await t.ctx.storage.read(row?.fileKey ?? ''))?.equals(content)).toBe(true);
    expect(await lastAudit()).toMatchObject({
      action: 'tool.upload',
      after: { name: 'ledger-lens-setup.exe' },
    });
  });
});

describe('orders', () => {
  it('resends the delivery email and refunds with a reason and a fresh code, each audited', async () => {
    const buyer = await newBuyer(t);
    // The catalogue already has the tool made above, so the default one is not seeded: buy a tool of our own.
    const tool = await addTool(t, { device: 'Windows' });
    const { id } = await buyThroughEmulator(t, buyer.client, tool.id);

    const resent = await operator.client.post(`/api/admin/orders/${id}/resend`, {});
    expect(resent.statusCode).toBe(200);
    expect(await lastAudit()).toMatchObject({ action: 'order.resend', target: `order:${id}` });

    const noReason = await operator.client.post(`/api/admin/orders/${id}/refund`, {
      reason: '',
      code: '123456',
    });
    expect(noReason.statusCode).toBe(400);
    const wrongCode = await operator.client.post(`/api/admin/orders/${id}/refund`, {
      reason: 'Bought by mistake',
      code: '000000',
    });
    expect(wrongCode.statusCode).toBe(400);
    expect((await t.ctx.db.select().from(orders).where(eq(orders.id, id)))[0]?.status).toBe('paid');

    const refunded = await operator.client.post(`/api/admin/orders/${id}/refund`, {
      reason: 'Bought by mistake',
      code: await freshCode(),
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect((await t.ctx.db.select().from(orders).where(eq(orders.id, id)))[0]?.status).toBe('refunded');
    expect(await lastAudit()).toMatchObject({
      action: 'order.refund',
      actor: operator.email,
      after: { status: 'refunded', reason: 'Bought by mistake' },
    });
    const mails = await t.ctx.db.select().from(outbox).where(eq(outbox.to, buyer.user.email));
    expect(mails.some((mail) => /refund/i.test(mail.subject))).toBe(true);
    const again = await operator.client.post(`/api/admin/orders/${id}/refund`, {
      reason: 'Twice',
      code: await freshCode(),
    });
    expect(again.statusCode).toBe(409);
    expect(
      (await operator.client.post('/api/admin/orders/00000000-0000-0000-0000-000000000000/resend', {}))
        .statusCode,
    ).toBe(404);
  });
});

describe('licenses and tax documents', () => {
  it('shows an order’s masked license, devices, invoice and credit note; frees a device and resets the allowance, audited', async () => {
    const buyer = await newBuyer(t);
    const tool = await addTool(t, { device: 'Windows', activationLimit: 2 });
    const { id } = await buyThroughEmulator(t, buyer.client, tool.id);
    const [license] = await t.ctx.db
      .select()
      .from(licenses)
      .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
      .where(eq(purchases.orderId, id));
    const key = (license && revealLicenseKey(t.ctx.dataSecrets, license.licenses)) ?? '';
    const answer = await activateLicense(t.ctx, {
      licenseKey: key,
      toolId: tool.id,
      fingerprint: fingerprint('office-pc'),
      name: 'Office PC',
    });
    expect(answer.valid).toBe(true);

    const detail = (await operator.client.get(`/api/admin/orders/${id}`)).json() as AdminOrderDetail;
    const [shown] = detail.licenses;
    expect(shown?.maskedKey).toMatch(new RegExp(`^[•-]+${key.slice(-4)}$`));
    expect(JSON.stringify(detail)).not.toContain(key.slice(0, 9));
    expect(shown).toMatchObject({ status: 'active', activationLimit: 2, devices: [{ name: 'Office PC' }] });
    expect(detail.invoice?.number).toMatch(/\S/);
    expect(detail.creditNote).toBeNull();
    const byNumber = await operator.client.get(
      `/api/admin/orders?q=${encodeURIComponent(detail.invoice?.number.toLowerCase() ?? '')}`,
    );
    expect(byNumber.json().items.map((order: { id: string }) => order.id)).toEqual([id]);
    const invoicePdf = await operator.client.get(detail.invoice?.pdfUrl ?? '');
    expect(invoicePdf.headers['content-type']).toBe('application/pdf');
    expect(invoicePdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await operator.client.get(`/api/admin/orders/${id}/credit-note.pdf`)).statusCode).toBe(404);

    const deviceId = shown?.devices[0]?.id;
    const freed = await operator.client.post(
      `/api/admin/licenses/${shown?.id}/devices/${deviceId}/deactivate`,
      {},
    );
    expect(freed.statusCode, freed.body).toBe(200);
    expect(await lastAudit()).toMatchObject({
      action: 'license.deactivate_device',
      actor: operator.email,
      after: { device: deviceId, active: false },
    });
    const again = await operator.client.post(
      `/api/admin/licenses/${shown?.id}/devices/${deviceId}/deactivate`,
      {},
    );
    expect(again.statusCode).toBe(404);
    const customer = (
      await operator.client.get(`/api/admin/customers/${buyer.user.id}`)
    ).json() as CustomerDetail;
    expect(customer.licenses.map((each) => each.devices.length)).toEqual([0]);
    expect(customer.orderList.map((order) => order.id)).toContain(id);

    const reset = await operator.client.post(`/api/admin/licenses/${shown?.id}/reset-deactivations`, {});
    expect(reset.statusCode).toBe(200);
    const [after] = await t.ctx.db
      .select()
      .from(licenses)
      .where(eq(licenses.id, shown?.id ?? ''));
    expect(after?.selfDeactivationsResetAt).toEqual(t.clock.now());
    expect(await lastAudit()).toMatchObject({
      action: 'license.reset_deactivations',
      before: { resetAt: null },
    });

    const refunded = await operator.client.post(`/api/admin/orders/${id}/refund`, {
      reason: 'Wrong edition',
      code: await freshCode(),
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const afterRefund = (await operator.client.get(`/api/admin/orders/${id}`)).json() as AdminOrderDetail;
    expect(afterRefund.licenses[0]?.status).toBe('revoked');
    expect(afterRefund.creditNote?.number).toMatch(/\S/);
    expect((await operator.client.get(afterRefund.creditNote?.pdfUrl ?? '')).statusCode).toBe(200);

    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(t.clock.now());
    const report = (
      await operator.client.get(`/api/admin/invoices?from=${day}&to=${day}`)
    ).json() as InvoiceReport;
    expect(report.documents).toContainEqual(
      expect.objectContaining({ section: 'cdn', number: afterRefund.creditNote?.number }),
    );
    expect(report.b2c.reduce((sum, row) => sum + row.documents, 0)).toBeGreaterThan(0);
    const exported = await operator.client.get(`/api/admin/invoices/export?from=${day}&to=${day}`);
    expect(exported.headers['content-type']).toMatch(/^text\/csv/);
    expect(exported.body.split('\r\n')[0]).toMatch(/^section,/);
    expect(exported.body).toContain(afterRefund.creditNote?.number ?? 'missing');
    const backwards = await operator.client.get(`/api/admin/invoices?from=${day}&to=2020-01-01`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().fieldErrors).toHaveProperty('to');
  });
});

describe('messages and mail', () => {
  it('marks a message handled once, audited', async () => {
    const [message] = await t.ctx.db
      .insert(contactMessages)
      .values({ name: 'Ravi', email: 'ravi@example.com', relatedTo: 'Products', description: 'Hi' })
      .returning();
    const url = `/api/admin/messages/${message?.id}/handled`;
    expect((await operator.client.post(url, {})).json().message).toMatch(/marked handled/);
    expect(await lastAudit()).toMatchObject({ action: 'message.handled', target: `message:${message?.id}` });
    expect((await operator.client.post(url, {})).json().message).toBe('It was already marked handled.');
    expect((await operator.client.post(url, { extra: true })).statusCode).toBe(400);
  });

  it('retries a failed email, audited; a sent one is refused', async () => {
    const [mail] = await t.ctx.db
      .insert(outbox)
      .values({
        to: 'x@example.com',
        subject: 'S',
        html: 'h',
        text: 't',
        kind: 'test',
        status: 'failed',
        attempts: 8,
        lastError: 'boom',
      })
      .returning();
    expect((await operator.client.post(`/api/admin/mail/${mail?.id}/retry`, {})).statusCode).toBe(200);
    const [after] = await t.ctx.db
      .select()
      .from(outbox)
      .where(eq(outbox.id, mail?.id ?? 0));
    expect(after).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await lastAudit()).toMatchObject({
      action: 'mail.retry',
      before: { status: 'failed', attempts: 8 },
    });
    await t.ctx.db
      .update(outbox)
      .set({ status: 'sent' })
      .where(eq(outbox.id, mail?.id ?? 0));
    expect((await operator.client.post(`/api/admin/mail/${mail?.id}/retry`, {})).statusCode).toBe(409);
    expect((await operator.client.post('/api/admin/mail/999999/retry', {})).statusCode).toBe(404);
  });
});
