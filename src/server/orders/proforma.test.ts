import { and, eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { multipartFile } from '../../../test/support/forms';
import { pdfText } from '../../../test/support/invoices-helpers';
import {
  catalogueRows,
  createUser,
  effectsOf,
  eventually,
  loginAs,
  MAHARASHTRA_BUSINESS_BILLING,
  MAHARASHTRA_GSTIN,
  postWebhook,
} from '../../../test/support/shop-fixtures';
import type { CheckoutQuote } from '../../shared/checkout-quote';
import type { OrderDetail } from '../../shared/order-detail';
import type { ProformaAnswer } from '../../shared/proforma';
import { couponRedemptions, coupons } from '../db/schema/coupons';
import { outbox, outboxAttachments } from '../db/schema/mail';
import { orderReceipts, orders, proformaTerms } from '../db/schema/orders';
import { gstr1Report } from '../invoices/gstr1';
import { cliActor } from '../operator/audit';
import { sendProformaNotices } from './proforma-expiry';
import { tdsReport } from './read/tds-report';
import { recordTransfer, settleLatePayment } from './receipts';

/**
 * Buying as a firm (issue 68), over real HTTP to the Razorpay emulator, on PGlite and PostgreSQL: a proforma with a
 * coupon and TDS for a Maharashtra GSTIN buyer's 5 seats, paid by its payment link, its tax invoice, GSTR-1 and the
 * TDS report all agreeing to the paisa; the buyer's Form 16A; an unpaid proforma expiring with a moved clock.
 */

const t = shopTestAppForFile();
let toolId: string;
// 26 November 2026, 11:30 in India: in the third quarter of financial year 2026-27.
const START = new Date('2026-11-26T06:00:00Z');

async function addCoupon(code: string, values: { percent?: number; maxUses?: number } = {}) {
  await t.ctx.db
    .insert(coupons)
    .values({ code, percent: values.percent ?? 10, maxUses: values.maxUses ?? null, createdBy: 'test' });
}

async function firmBuyer() {
  const user = await createUser(t, { name: 'Anand Traders Pvt Ltd' });
  return { user, client: await loginAs(t, user) };
}

async function askProforma(client: Awaited<ReturnType<typeof loginAs>>, extra: Record<string, unknown>) {
  return client.post('/api/checkout/proforma', {
    toolId,
    currency: 'INR',
    billingDetails: MAHARASHTRA_BUSINESS_BILLING,
    seats: 5,
    ...extra,
  });
}

/** A small real PDF, as a buyer's Form 16A would be. */
function form16a(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.text('FORM NO. 16A — Certificate under section 203 for tax deducted at source');
    doc.end();
  });
}

const moveClockTo = (at: Date) => t.clock.advance(at.getTime() - t.clock.now().getTime());

const rupees = (paise: number) =>
  `₹${Math.floor(paise / 100).toLocaleString('en-IN')}.${String(paise % 100).padStart(2, '0')}`;

beforeAll(async () => {
  moveClockTo(START);
  toolId = (await catalogueRows(t)).windows.id;
});

describe('a proforma with a coupon and TDS, paid by its payment link', () => {
  let buyer: Awaited<ReturnType<typeof firmBuyer>>;
  let quote: CheckoutQuote;
  let answer: ProformaAnswer;

  it('is priced as the quote prices it and asks for the total less TDS', async () => {
    await addCoupon('FIRM10');
    buyer = await firmBuyer();
    const quoted = await buyer.client.post('/api/checkout/quote', {
      toolId,
      currency: 'INR',
      state: 'Maharashtra',
      gstin: MAHARASHTRA_GSTIN,
      couponCode: 'FIRM10',
      seats: 5,
      tds: true,
    });
    expect(quoted.statusCode).toBe(200);
    quote = quoted.json<CheckoutQuote>();
    // 5 × ₹1,499 = ₹7,495 less 10 % = ₹6,745.50; IGST 18 % out of it; TDS 10 % of the taxable value.
    expect(quote).toMatchObject({
      listPrice: 749_500,
      discount: 74_950,
      total: 674_550,
      taxableValue: 571_653,
      taxes: [{ name: 'IGST', rate: 18, amount: 102_897 }],
      tds: 57_165,
      amountDue: 617_385,
    });

    const asked = await askProforma(buyer.client, { couponCode: 'FIRM10', tds: true, pan: 'aapfu 0939f' });
    expect(asked.statusCode, asked.body).toBe(200);
    answer = asked.json<ProformaAnswer>();
    expect(answer).toMatchObject({
      proformaNumber: 'PCAP/26-27/00001',
      amountDue: quote.amountDue,
      paymentLinkUrl: expect.stringMatching(/\/emulator\/razorpay\/l\/plink_\w+$/),
      // 15 days: until the end of 11 December in India.
      validUntil: '2026-12-11T18:29:59.999Z',
    });
    const [order] = await t.ctx.db.select().from(orders).where(eq(orders.id, answer.orderId));
    expect(order).toMatchObject({
      status: 'created',
      amount: quote.total,
      tdsAmount: quote.tds,
      buyerPan: 'AAPFU0939F',
      seats: 5,
      couponCode: 'FIRM10',
    });
    // The coupon's use is held with the order until the proforma's last moment.
    const [held] = await t.ctx.db
      .select()
      .from(couponRedemptions)
      .where(eq(couponRedemptions.orderId, answer.orderId));
    expect(held).toMatchObject({ state: 'reserved', heldUntil: new Date(answer.validUntil) });
  });

  it("makes Razorpay's payment link ask exactly the net amount, until the proforma's end", async () => {
    const [terms] = await t.ctx.db
      .select()
      .from(proformaTerms)
      .where(eq(proformaTerms.orderId, answer.orderId));
    const link = await t.ctx.gateway.fetchPaymentLink(terms?.paymentLinkId ?? '');
    expect(link).toMatchObject({
      amount: 617_385,
      currency: 'INR',
      status: 'created',
      reference_id: answer.orderId,
      expire_by: Math.floor(new Date(answer.validUntil).getTime() / 1000),
    });
  });

  it('prints the proforma from the same numbers: taxable value, IGST, total, TDS and the net due', async () => {
    const pdf = await buyer.client.get(`/api/orders/${answer.orderId}/proforma.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toContain('Proforma-invoice-PCAP-26-27-00001.pdf');
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain('Proforma invoice — not a tax invoice');
    expect(text).toContain('PCAP/26-27/00001');
    expect(text).toContain('Valid until: 11/12/2026');
    expect(text).toContain(`Taxable value ${rupees(571_653)}`);
    expect(text).toContain(`IGST @ 18% ${rupees(102_897)}`);
    expect(text).toContain(`Total (INR) ${rupees(674_550)}`);
    expect(text).toContain(`Less TDS u/s 194J @ 10% of taxable value -${rupees(57_165)}`);
    expect(text).toContain(`Amount due (INR) ${rupees(617_385)}`);
    expect(text).toContain(
      'Amount due in words: Rupees Six Thousand One Hundred Seventy-Three and Eighty-Five Paise Only',
    );
    expect(text).toContain(answer.paymentLinkUrl);
    expect(text).toContain('IFSC SPEC0000001');
    expect(text).toContain('less coupon FIRM10');
    // Someone else's proforma does not exist for them.
    const stranger = await loginAs(t, await createUser(t));
    expect((await stranger.get(`/api/orders/${answer.orderId}/proforma.pdf`)).statusCode).toBe(404);
  });

  it('is emailed with the PDF and shown on the order page as awaiting payment', async () => {
    const [mail] = await t.ctx.db
      .select({ id: outbox.id, subject: outbox.subject, to: outbox.to })
      .from(outbox)
      .where(and(eq(outbox.kind, 'proforma-invoice'), eq(outbox.ref, `order:${answer.orderId}`)));
    expect(mail).toMatchObject({
      to: buyer.user.email,
      subject: expect.stringContaining('PCAP/26-27/00001'),
    });
    const attached = await t.ctx.db
      .select()
      .from(outboxAttachments)
      .where(eq(outboxAttachments.outboxId, mail?.id ?? 0));
    expect(attached).toEqual([expect.objectContaining({ kind: 'proforma' })]);

    const page = (await buyer.client.get(`/api/orders/${answer.orderId}`)).json<OrderDetail>();
    expect(page).toMatchObject({
      status: 'created',
      total: 674_550,
      tds: 57_165,
      amountDue: 617_385,
      proforma: {
        number: 'PCAP/26-27/00001',
        state: 'awaiting',
        paymentLinkUrl: answer.paymentLinkUrl,
        bank: { ifsc: 'SPEC0000001' },
        received: 0,
      },
      tdsCertificate: { pan: 'AAPFU0939F', certificate: null, canUpload: true },
    });
    const history = (await buyer.client.get('/api/orders/')).json<Array<{ id: string; status: string }>>();
    expect(history).toContainEqual(
      expect.objectContaining({ id: answer.orderId, status: 'awaiting-payment' }),
    );
  });

  it('settles once when the link is paid; a replayed payment_link.paid changes nothing', async () => {
    const paid = await fetch(`${answer.paymentLinkUrl}/pay`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    expect(paid.status).toBe(200);
    const { payment_id: paymentId } = (await paid.json()) as { payment_id: string };
    await t.emulator?.settled();
    const order = await eventually(async () => {
      const [row] = await t.ctx.db.select().from(orders).where(eq(orders.id, answer.orderId));
      return row?.status === 'paid' ? row : undefined;
    });
    expect(order.razorpayPaymentId).toBe(paymentId);
    expect(order.razorpayOrderId).toMatch(/^order_/);
    const effects = await effectsOf(t, answer.orderId);
    expect(effects).toMatchObject({ purchases: 1, licenses: 1 });
    expect(effects.deliveries).toHaveLength(1);

    // Razorpay redelivers (same event id), and the same payment arrives again under another event id.
    const link = await t.ctx.gateway.fetchPaymentLink(await linkIdOf(answer.orderId));
    const body = JSON.stringify({
      entity: 'event',
      event: 'payment_link.paid',
      contains: ['payment_link', 'payment', 'order'],
      payload: {
        payment_link: { entity: { ...link, payments: null } },
        payment: {
          entity: {
            id: paymentId,
            amount: 617_385,
            currency: 'INR',
            order_id: order.razorpayOrderId,
            status: 'captured',
          },
        },
        order: { entity: { id: order.razorpayOrderId } },
      },
    });
    for (const eventId of ['evt_replayed_1', 'evt_replayed_1', 'evt_replayed_2']) {
      const replay = await postWebhook(t, body, { eventId });
      expect(replay.statusCode).toBe(200);
      expect(['duplicate']).toContain(replay.json<{ result: string }>().result);
    }
    expect(await effectsOf(t, answer.orderId)).toMatchObject({ purchases: 1, licenses: 1 });
    const receipts = await t.ctx.db
      .select()
      .from(orderReceipts)
      .where(eq(orderReceipts.orderId, answer.orderId));
    expect(receipts).toHaveLength(1);
  });

  it('issues the tax invoice at the full value with the same taxable value and IGST', async () => {
    const pdf = await buyer.client.get(`/api/orders/${answer.orderId}/invoice.pdf`);
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain('TAX INVOICE');
    expect(text).toContain('PCA/26-27/00001');
    expect(text).toContain(`Taxable value ${rupees(571_653)}`);
    expect(text).toContain(`IGST @ 18% ${rupees(102_897)}`);
    expect(text).toContain(`Total (INR) ${rupees(674_550)}`);
    expect(text).toContain('Paid against proforma invoice PCAP/26-27/00001');
    expect(text).toContain(`TDS of ${rupees(57_165)} under section 194J`);
    expect(text).not.toContain('not a tax invoice —');
  });

  it('lists the invoice as B2B in GSTR-1 and the receivable in the TDS report', async () => {
    const gstr1 = await gstr1Report(t.ctx, { from: '2026-11-01', to: '2026-11-30' });
    expect(gstr1.b2b).toEqual([
      expect.objectContaining({
        number: 'PCA/26-27/00001',
        buyerGstin: MAHARASHTRA_GSTIN,
        taxableValue: 571_653,
        igst: 102_897,
        total: 674_550,
      }),
    ]);
    const report = await tdsReport(t.ctx, '2026-Q3');
    expect(report.rows).toEqual([
      expect.objectContaining({
        orderId: answer.orderId,
        pan: 'AAPFU0939F',
        invoiceNumber: 'PCA/26-27/00001',
        taxableValue: 571_653,
        tdsAmount: 57_165,
        certificate: 'missing',
      }),
    ]);
    expect((await tdsReport(t.ctx, '2026-Q2')).rows).toEqual([]);
  });

  it("takes the buyer's Form 16A as a PDF only, and the report shows it received", async () => {
    const notPdf = multipartFile('file', 'form16a.pdf', Buffer.from('just text'));
    const refused = await buyer.client.post(`/api/orders/${answer.orderId}/tds-certificate`, notPdf.body, {
      'content-type': notPdf.contentType,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ fieldErrors: { file: 'Form 16A must be a PDF file.' } });

    const certificate = await form16a();
    const upload = multipartFile('file', 'Form16A-Q3.pdf', certificate);
    const stranger = await loginAs(t, await createUser(t));
    const theirs = await stranger.post(`/api/orders/${answer.orderId}/tds-certificate`, upload.body, {
      'content-type': upload.contentType,
    });
    expect(theirs.statusCode).toBe(404);
    const mine = await buyer.client.post(`/api/orders/${answer.orderId}/tds-certificate`, upload.body, {
      'content-type': upload.contentType,
    });
    expect(mine.statusCode, mine.body).toBe(200);
    const back = await buyer.client.get(`/api/orders/${answer.orderId}/tds-certificate.pdf`);
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(certificate)).toBe(true);

    const report = await tdsReport(t.ctx, '2026-Q3');
    expect(report.rows[0]).toMatchObject({ certificate: 'received', certificateReceivedOn: '2026-11-26' });
    expect(report.totals).toEqual({ taxableValue: 571_653, tdsAmount: 57_165, received: 1, missing: 0 });
  });
});

async function linkIdOf(orderId: string): Promise<string> {
  const [terms] = await t.ctx.db.select().from(proformaTerms).where(eq(proformaTerms.orderId, orderId));
  return terms?.paymentLinkId ?? '';
}

describe('who may ask for a proforma', () => {
  it('refuses a buyer without a GSTIN for one seat, a bad PAN and a PAN not the GSTIN’s', async () => {
    const { client } = await firmBuyer();
    const noGstin = await askProforma(client, {
      seats: 1,
      billingDetails: { ...MAHARASHTRA_BUSINESS_BILLING, gstin: '' },
    });
    expect(noGstin.statusCode).toBe(400);
    expect(noGstin.json()).toMatchObject({
      fieldErrors: { 'billingDetails.gstin': expect.stringContaining('GSTIN') },
    });
    const badPan = await askProforma(client, { tds: true, pan: 'ABCDE1234' });
    expect(badPan.json()).toMatchObject({
      fieldErrors: { pan: expect.stringContaining('valid 10-character PAN') },
    });
    const otherPan = await askProforma(client, { tds: true, pan: 'AAACB1234C' });
    expect(otherPan.json()).toMatchObject({ fieldErrors: { pan: 'This PAN is not the one in your GSTIN' } });
    const dollars = await askProforma(client, {
      currency: 'USD',
      billingDetails: { address: '', state: '', country: 'Canada', gstin: '', currency: 'USD' },
    });
    expect(dollars.statusCode).toBe(400);
  });

  it('gives a team of seats a proforma without a GSTIN', async () => {
    const { client } = await firmBuyer();
    const team = await askProforma(client, {
      seats: 3,
      billingDetails: { ...MAHARASHTRA_BUSINESS_BILLING, gstin: '' },
    });
    expect(team.statusCode, team.body).toBe(200);
  });
});

describe('a proforma left unpaid', () => {
  it('reminds the buyer a week before once, then expires: the order is cancelled and its coupon use returns', async () => {
    moveClockTo(START);
    await addCoupon('ONEUSE', { maxUses: 1 });
    const { user, client } = await firmBuyer();
    const asked = await askProforma(client, { couponCode: 'ONEUSE' });
    expect(asked.statusCode, asked.body).toBe(200);
    const { orderId, paymentLinkUrl } = asked.json<ProformaAnswer>();
    // The single use is held: another buyer hears it is used up.
    const other = await firmBuyer();
    const refused = await askProforma(other.client, { couponCode: 'ONEUSE' });
    expect(refused.json()).toMatchObject({ message: 'This code has been used up.' });

    const mails = async (kind: string) =>
      t.ctx.db
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(eq(outbox.kind, kind), eq(outbox.ref, `order:${orderId}`)));
    moveClockTo(new Date(START.getTime() + 7 * 86_400_000));
    await sendProformaNotices(t.ctx);
    expect(await mails('proforma-reminder')).toHaveLength(0);
    moveClockTo(new Date(START.getTime() + 9 * 86_400_000));
    // Two instances at once: one reminder.
    await Promise.all([sendProformaNotices(t.ctx), sendProformaNotices(t.ctx)]);
    await sendProformaNotices(t.ctx);
    expect(await mails('proforma-reminder')).toHaveLength(1);

    moveClockTo(new Date(START.getTime() + 16 * 86_400_000));
    // This one and the earlier team's proforma, both unpaid; the paid one above is only marked expired.
    expect(await sendProformaNotices(t.ctx)).toMatchObject({ expired: 2 });
    const [order] = await t.ctx.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('cancelled');
    expect(await mails('proforma-expired')).toHaveLength(1);
    const [use] = await t.ctx.db
      .select()
      .from(couponRedemptions)
      .where(eq(couponRedemptions.orderId, orderId));
    expect(use?.state).toBe('released');
    // Its link no longer takes money, and the code can be used again.
    const link = await t.ctx.gateway.fetchPaymentLink(await linkIdOf(orderId));
    expect(link.status).toBe('cancelled');
    expect((await fetch(`${paymentLinkUrl}/pay`, { method: 'POST' })).status).toBe(400);
    // (Signed in again: sessions last 14 days.)
    const again = await askProforma(await loginAs(t, other.user), { couponCode: 'ONEUSE' });
    expect(again.statusCode, again.body).toBe(200);

    // A transfer that still arrives is kept as late money; the operator settles the order with it.
    const late = await recordTransfer(t.ctx, {
      orderId,
      amount: order?.amount ?? 0,
      utr: 'HDFCN52026121200001',
      date: '2026-12-12',
      actor: cliActor('tester'),
      source: 'admin',
    });
    expect(late.result).toBe('late');
    const settled = await settleLatePayment(t.ctx, { orderId, actor: cliActor('tester'), source: 'admin' });
    expect(settled).toMatchObject({ result: 'settled', fulfilment: { result: 'fulfilled' } });
    expect(await effectsOf(t, orderId)).toMatchObject({ purchases: 1, licenses: 1 });
    expect(user.id).toBe(order?.userId);
  });
});
