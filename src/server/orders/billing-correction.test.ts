import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandLineOn } from '../../../test/support/command-line';
import { appWithSmtp } from '../../../test/support/file-apps';
import { pdfText } from '../../../test/support/invoices-helpers';
import { deliverDueMail } from '../../../test/support/mail';
import {
  buyThroughEmulator,
  catalogueRows,
  createOrder,
  createShopTestApp,
  loginAs,
  newBuyer,
  orderRow,
} from '../../../test/support/shop-fixtures';
import { BILLING_MESSAGES } from '../../shared/billing';
import { BILLING_CORRECTION_MESSAGES, type BillingCorrectionAnswer } from '../../shared/billing-correction';
import { gstinCheckCharacter } from '../../shared/gstin';
import type { OrderDetail } from '../../shared/order-detail';
import { type CommandLineEnv, runCommandLine } from '../cli/command-line';
import { creditNotes, documentCounters, invoices } from '../db/schema/invoices';
import { auditLog } from '../db/schema/operator';
import type { TaxDocument } from '../invoices/document';
import { cliActor } from '../operator/audit';
import { billingCorrectionDeadline } from './billing-correction';
import { refundOrder } from './refund';

/** A GSTIN of Maharashtra (27) that passes the checksum, and the same with its check character wrong. */
const MAHARASHTRA_GSTIN = '27AAPFU0939F1ZV';
const WRONG_CHECKSUM = '27AAPFU0939F1ZW';
const RAJASTHAN_GSTIN = `08AAPFU0939F1Z${gstinCheckCharacter('08AAPFU0939F1Z')}`;
const NEW_ADDRESS = 'Unit 4, Trade Centre, Bandra Kurla Complex, Mumbai 400051';

const { t, smtp } = appWithSmtp(createShopTestApp);
let windowsId: string;
let cli: CommandLineEnv;

beforeAll(async () => {
  windowsId = (await catalogueRows(t)).windows.id;
  cli = commandLineOn(t, 'accountant');
});

const flat = (text: string) => text.replace(/\s+/g, ' ');
const issuedCount = async () => ({
  invoices: (await t.ctx.db.select().from(invoices)).length,
  creditNotes: (await t.ctx.db.select().from(creditNotes)).length,
  counters: await t.ctx.db.select().from(documentCounters),
});

describe('POST /api/orders/:orderId/billing', () => {
  it('adds a GSTIN: a credit note cancels the invoice, a B2B invoice replaces it, both in one email and in GSTR-1', async () => {
    const { user, client } = await newBuyer(t);
    const order = await buyThroughEmulator(t, client, windowsId);
    const [original] = await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, order.id));
    if (!original) throw new Error('no invoice after the purchase');
    await deliverDueMail(t.ctx);

    const answer = await client.post(`/api/orders/${order.id}/billing`, {
      gstin: ' 27aapfu0939f1zv ',
      address: NEW_ADDRESS,
      state: 'Maharashtra',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const issued = answer.json<BillingCorrectionAnswer>();
    // The next numbers of both series (this file's earlier purchase took invoice 00001).
    expect(issued.creditNote.number).toMatch(/^PCAC\/26-27\/\d{5}$/);
    expect(issued.invoice.number).toMatch(/^PCA\/26-27\/\d{5}$/);
    expect(Number(issued.invoice.number.slice(-5))).toBe(Number(original.number.slice(-5)) + 1);

    // One email with both PDFs, over real SMTP.
    await deliverDueMail(t.ctx);
    const mail = await smtp.waitFor(
      (received) => received.to.includes(user.email) && received.subject.includes(issued.invoice.number),
    );
    expect(smtp.messages.filter((received) => received.subject.includes(issued.invoice.number))).toHaveLength(
      1,
    );
    const pdfs = mail.attachments.filter((file) => file.mimeType === 'application/pdf');
    expect(pdfs.map((file) => file.filename).sort()).toEqual(
      [
        `Credit-note-${issued.creditNote.number.replaceAll('/', '-')}.pdf`,
        `Invoice-${issued.invoice.number.replaceAll('/', '-')}.pdf`,
      ].sort(),
    );
    const text = async (prefix: string) =>
      flat(await pdfText(pdfs.find((file) => file.filename?.startsWith(prefix))?.content ?? Buffer.alloc(0)));
    const noteText = await text('Credit-note');
    expect(noteText).toContain(issued.creditNote.number);
    expect(noteText).toContain(original.number);
    expect(noteText).toContain('₹1,499.00');
    const invoiceText = await text('Invoice');
    expect(invoiceText).toContain(`Invoice no. ${issued.invoice.number}`);
    expect(invoiceText).toContain(MAHARASHTRA_GSTIN);
    expect(invoiceText).toContain('Bandra Kurla Complex');
    expect(invoiceText).toContain('IGST @ 18% ₹228.66');
    expect(invoiceText).not.toContain('CGST @');
    expect(invoiceText).toContain('₹1,499.00');

    // The order page: the old invoice cancelled by the credit note, the new one current, the history, the details.
    const detail = (await client.get(`/api/orders/${order.id}`)).json<OrderDetail>();
    expect(detail.documents.map(({ kind, number, cancelledBy }) => ({ kind, number, cancelledBy }))).toEqual([
      { kind: 'invoice', number: original.number, cancelledBy: issued.creditNote.number },
      { kind: 'credit-note', number: issued.creditNote.number, cancelledBy: null },
      { kind: 'invoice', number: issued.invoice.number, cancelledBy: null },
    ]);
    expect(detail.billing).toMatchObject({
      gstin: MAHARASHTRA_GSTIN,
      state: 'Maharashtra',
      address: NEW_ADDRESS,
    });
    expect(detail.taxes.map((line) => line.name)).toEqual(['IGST']);
    expect(detail.history.at(-1)?.label).toContain(issued.creditNote.number);
    // Each document downloads by its own link; the plain invoice link is the current invoice.
    for (const document of detail.documents) {
      const pdf = await client.get(document.url);
      expect(pdf.statusCode).toBe(200);
      expect(flat(await pdfText(pdf.rawPayload))).toContain(document.number);
    }
    const current = await client.get(`/api/orders/${order.id}/invoice.pdf`);
    expect(flat(await pdfText(current.rawPayload))).toContain(issued.invoice.number);

    const [audit] = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'order.billing-correct'));
    expect(audit).toMatchObject({ actor: 'buyer:self', actorId: user.id, target: `order:${order.id}` });

    // The accountant's GSTR-1 export: the new invoice as B2B, the credit note against the cancelled invoice.
    const exported = await runCommandLine(
      ['invoices', 'export', '--from', '2026-06-01', '--to', '2026-06-30', '--csv'],
      cli,
    );
    const rows = exported.stdout.split('\n').map((row) => row.split(','));
    expect(rows).toContainEqual(
      expect.arrayContaining(['b2b', issued.invoice.number, MAHARASHTRA_GSTIN, '27-Maharashtra']),
    );
    expect(rows).toContainEqual(expect.arrayContaining(['cdn', issued.creditNote.number, original.number]));

    // Correcting again: the B2B invoice is cancelled by a credit note that the export lists with the GSTIN (cdnr).
    const again = await client.post(`/api/orders/${order.id}/billing`, {
      gstin: RAJASTHAN_GSTIN,
      address: 'MI Road, Jaipur',
      state: 'Rajasthan',
    });
    expect(again.statusCode, again.body).toBe(200);
    const second = again.json<BillingCorrectionAnswer>();
    const [secondNote] = await t.ctx.db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.number, second.creditNote.number));
    expect((secondNote?.document as TaxDocument | undefined)?.buyer.gstin).toBe(MAHARASHTRA_GSTIN);
    const [rajasthan] = await t.ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.number, second.invoice.number));
    expect((rajasthan?.document as TaxDocument | undefined)?.taxes.map((line) => line.name)).toEqual([
      'CGST',
      'SGST',
    ]);

    // Nothing changed: refused, nothing issued.
    const before = await issuedCount();
    const same = await client.post(`/api/orders/${order.id}/billing`, {
      gstin: RAJASTHAN_GSTIN,
      address: 'MI Road, Jaipur',
      state: 'Rajasthan',
    });
    expect(same.statusCode).toBe(409);
    expect(same.json<{ message: string }>().message).toBe(BILLING_CORRECTION_MESSAGES.unchanged);
    expect(await issuedCount()).toEqual(before);

    // A refund now credits the current invoice, not a cancelled one.
    await refundOrder(t.ctx, {
      orderId: order.id,
      source: 'admin',
      reason: 'test',
      actor: cliActor('tester'),
    });
    const [refundNote] = await t.ctx.db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, rajasthan?.id ?? ''));
    expect((refundNote?.document as TaxDocument | undefined)?.original?.number).toBe(second.invoice.number);
    const refused = await client.post(`/api/orders/${order.id}/billing`, {
      address: 'Elsewhere',
      state: 'Rajasthan',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(BILLING_CORRECTION_MESSAGES.refunded);
    // Two purchases, three corrections, a refund and six PDFs read back: slow on a busy machine.
  }, 90_000);

  it('refuses a wrong checksum, a GSTIN of another state, a missing address or state, naming the field; issues nothing', async () => {
    const { client } = await newBuyer(t);
    const order = await buyThroughEmulator(t, client, windowsId);
    const before = await issuedCount();
    const url = `/api/orders/${order.id}/billing`;
    const cases = [
      [
        { gstin: WRONG_CHECKSUM, address: NEW_ADDRESS, state: 'Maharashtra' },
        'gstin',
        BILLING_MESSAGES.gstinCheckCharacter,
      ],
      [
        { gstin: MAHARASHTRA_GSTIN, address: NEW_ADDRESS, state: 'Rajasthan' },
        'gstin',
        BILLING_MESSAGES.gstinStateMismatch,
      ],
      [
        { gstin: MAHARASHTRA_GSTIN, address: '  ', state: 'Maharashtra' },
        'address',
        BILLING_MESSAGES.addressRequired,
      ],
      [{ address: NEW_ADDRESS, state: 'Atlantis' }, 'state', BILLING_MESSAGES.stateUnknown],
    ] as const;
    for (const [body, field, message] of cases) {
      const answer = await client.post(url, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toEqual({
        [field]: message,
      });
    }
    expect(await issuedCount()).toEqual(before);
    const [stored] = await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, order.id));
    expect(stored?.cancelledByCreditNoteId).toBeNull();
  });

  it('is 404 for another buyer and refused for an unpaid order', async () => {
    const owner = await newBuyer(t);
    const order = await buyThroughEmulator(t, owner.client, windowsId);
    const stranger = await newBuyer(t);
    const body = { gstin: MAHARASHTRA_GSTIN, address: NEW_ADDRESS, state: 'Maharashtra' };
    const before = await issuedCount();
    const notTheirs = await stranger.client.post(`/api/orders/${order.id}/billing`, body);
    const unknown = await stranger.client.post(
      '/api/orders/00000000-0000-4000-8000-000000000000/billing',
      body,
    );
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.body).toBe(unknown.body);
    const unpaid = await createOrder(stranger.client, windowsId);
    const unpaidOrder = await orderRow(t, unpaid.json<{ order_id: string }>().order_id);
    const refused = await stranger.client.post(`/api/orders/${unpaidOrder.id}/billing`, body);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(BILLING_CORRECTION_MESSAGES.notPaid);
    expect(await issuedCount()).toEqual(before);
  });

  it('allows a correction until 30 November after the financial year, and refuses it after', async () => {
    expect(billingCorrectionDeadline(new Date('2026-05-10T06:00:00Z'))).toBe('2027-11-30');
    expect(billingCorrectionDeadline(new Date('2027-03-31T18:00:00Z'))).toBe('2027-11-30');
    expect(billingCorrectionDeadline(new Date('2027-03-31T18:31:00Z'))).toBe('2028-11-30');

    const { user, client } = await newBuyer(t);
    const order = await buyThroughEmulator(t, client, windowsId);
    expect((await client.get(`/api/orders/${order.id}`)).json<OrderDetail>().billingCorrectableUntil).toBe(
      '2027-11-30',
    );
    // From 2026-06-01 to 1 December 2027 in India.
    t.clock.advance(new Date('2027-11-30T18:30:00Z').getTime() - t.clock.now().getTime());
    const late = await loginAs(t, user);
    const before = await issuedCount();
    const refused = await late.post(`/api/orders/${order.id}/billing`, {
      gstin: MAHARASHTRA_GSTIN,
      address: NEW_ADDRESS,
      state: 'Maharashtra',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(
      BILLING_CORRECTION_MESSAGES.pastDeadline('30 November 2027'),
    );
    expect(await issuedCount()).toEqual(before);
    expect(
      (await late.get(`/api/orders/${order.id}`)).json<OrderDetail>().billingCorrectableUntil,
    ).toBeNull();
  });
});
