import { asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { BILLING_COUNTRY_INDIA } from '../../shared/billing';
import { BILLING_CORRECTION_MESSAGES, type billingCorrectionSchema } from '../../shared/billing-correction';
import { orderPagePath } from '../../shared/order-detail';
import { creditNotes, invoices } from '../db/schema/invoices';
import { orders } from '../db/schema/orders';
import { buildCreditNoteDocument, buildInvoiceDocument, type TaxDocument } from '../invoices/document';
import { currentInvoiceOf } from '../invoices/issue';
import { indiaDate, nextDocumentNumber } from '../invoices/numbering';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { toolLabel } from '../licenses/delivery-email';
import { renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';
import { recordAudit } from '../operator/audit';
import { recordOrderEvent } from './events';
import { lockOwnPaidOrder } from './owned-order';

/**
 * The last India date on which the billing details of a supply invoiced at `issuedAt` can be corrected: a credit
 * note for it may be issued until 30 November after the end of its financial year (CGST Act s. 34(2); the
 * financial year ends on 31 March). An invoice of 2026-05-10 (FY 2026-27) → 2027-11-30.
 */
export function billingCorrectionDeadline(issuedAt: Date): string {
  const [year, month] = indiaDate(issuedAt).split('-').map(Number) as [number, number];
  const financialYearEnds = month >= 4 ? year + 1 : year;
  return `${financialYearEnds}-11-30`;
}

const longDate = (isoDate: string) =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-IN', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

export type CorrectedDocuments = {
  creditNote: { id: string; number: string };
  invoice: { id: string; number: string };
};

/**
 * POST /api/orders/:orderId/billing: the buyer adds or corrects the GSTIN and billing address of their own paid
 * order. One transaction cancels the current invoice by a credit note for its full value (the next number of the
 * credit-note series), issues a new invoice with the same lines and amounts, taxed for the new state (the next
 * number of the invoice series), stores the new details on the order, records the history and the audit entry,
 * and queues one email with both PDFs. Anything refused changes nothing and issues no number.
 */
export async function correctBilling(
  ctx: AppContext,
  input: { userId: string; orderId: string; body: z.output<typeof billingCorrectionSchema> },
): Promise<CorrectedDocuments> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const { order, tool, user } = await lockOwnPaidOrder(tx, input, {
      notPaid: BILLING_CORRECTION_MESSAGES.notPaid,
      refunded: BILLING_CORRECTION_MESSAGES.refunded,
    });
    if ((order.billing.country || BILLING_COUNTRY_INDIA) !== BILLING_COUNTRY_INDIA)
      throw new DomainError('refused', BILLING_CORRECTION_MESSAGES.notIndia);
    const current = await currentInvoiceOf(tx, order.id);
    if (!current) throw new DomainError('refused', BILLING_CORRECTION_MESSAGES.noInvoice);

    // The deadline runs from the supply, that is the order's first invoice, however often it was corrected since.
    const [first] = await tx
      .select({ issuedAt: invoices.issuedAt })
      .from(invoices)
      .where(eq(invoices.orderId, order.id))
      .orderBy(asc(invoices.issuedAt))
      .limit(1);
    const deadline = billingCorrectionDeadline(first?.issuedAt ?? current.issuedAt);
    if (indiaDate(now) > deadline)
      throw new DomainError('refused', BILLING_CORRECTION_MESSAGES.pastDeadline(longDate(deadline)));

    const billing = {
      ...order.billing,
      address: input.body.address,
      state: input.body.state,
      country: BILLING_COUNTRY_INDIA,
      gstin: input.body.gstin,
    };
    const was = current.document as TaxDocument;
    if (
      was.buyer.address === billing.address &&
      (was.buyer.stateName ?? '') === billing.state &&
      (was.buyer.gstin ?? '') === billing.gstin
    )
      throw new DomainError('refused', BILLING_CORRECTION_MESSAGES.unchanged);

    const firm = ctx.config.firm;
    const noteNumber = await nextDocumentNumber(tx, {
      series: 'credit-note',
      prefix: firm.invoicePrefix,
      at: now,
    });
    const invoiceNumber = await nextDocumentNumber(tx, {
      series: 'invoice',
      prefix: firm.invoicePrefix,
      at: now,
    });
    const reason = `Billing details corrected at the buyer's request: invoice ${was.number} is cancelled and replaced by invoice ${invoiceNumber.number}.`;
    const noteDocument = buildCreditNoteDocument({
      invoice: was,
      firm,
      number: noteNumber.number,
      issuedAt: now,
      amount: was.total,
      reason,
    });
    const [note] = await tx
      .insert(creditNotes)
      .values({
        number: noteNumber.number,
        invoiceId: current.id,
        orderId: order.id,
        userId: order.userId,
        issuedAt: now,
        currency: noteDocument.currency,
        total: noteDocument.total,
        document: noteDocument,
      })
      .returning({ id: creditNotes.id });
    if (!note) throw new Error('credit note insert returned no row');
    await tx.update(invoices).set({ cancelledByCreditNoteId: note.id }).where(eq(invoices.id, current.id));

    // Same supply, same lines and amounts: only the buyer's details and the tax split for their state change.
    const invoiceDocument = buildInvoiceDocument({
      firm,
      number: invoiceNumber.number,
      issuedAt: now,
      buyer: { name: was.buyer.name, email: was.buyer.email, billing },
      itemDescription: was.item.description,
      currency: was.currency,
      total: was.total,
      settledInr: was.settledInr,
      payment: was.payment,
      coupon: was.discount ? { code: was.discount.code, listPrice: was.discount.listPrice } : null,
    });
    const [invoice] = await tx
      .insert(invoices)
      .values({
        number: invoiceNumber.number,
        orderId: order.id,
        userId: order.userId,
        issuedAt: now,
        supplyType: invoiceDocument.supplyType,
        buyerGstin: invoiceDocument.buyer.gstin,
        currency: invoiceDocument.currency,
        total: invoiceDocument.total,
        document: invoiceDocument,
      })
      .returning({ id: invoices.id });
    if (!invoice) throw new Error('invoice insert returned no row');
    await tx.update(orders).set({ billing, updatedAt: now }).where(eq(orders.id, order.id));

    const facts = {
      cancelledInvoice: was.number,
      creditNote: noteNumber.number,
      invoice: invoiceNumber.number,
      gstin: billing.gstin || null,
      state: billing.state,
    };
    await recordOrderEvent(tx, order.id, 'billing-corrected', facts, now);
    await recordAudit(
      tx,
      { kind: 'buyer', userId: input.userId },
      {
        action: 'order.billing-correct',
        target: `order:${order.id}`,
        before: { invoice: was.number, gstin: was.buyer.gstin, state: was.buyer.stateName },
        after: facts,
      },
    );
    const label = toolLabel(tool.name, tool.device);
    await enqueueMail(
      ctx,
      tx,
      {
        to: user.email,
        ...renderEmail({
          subject: `Your corrected tax invoice ${invoiceNumber.number} for ${label}`,
          heading: 'Your billing details are corrected',
          blocks: [
            {
              kind: 'paragraph',
              text: `Hello ${user.name}, as you asked, invoice ${was.number} is cancelled by credit note ${noteNumber.number}, and invoice ${invoiceNumber.number} replaces it with your new billing details. Both are attached.`,
            },
            {
              kind: 'details',
              rows: [
                ['Cancelled invoice', was.number],
                ['Credit note', noteNumber.number],
                ['New invoice', invoiceNumber.number],
                ['GSTIN', billing.gstin || 'None'],
                ['State', billing.state],
              ],
            },
            {
              kind: 'button',
              href: `${ctx.config.publicUrl}${orderPagePath(order.id)}`,
              label: 'See your order',
            },
          ],
        }),
        kind: 'billing-correction',
        ref: `order:${order.id}`,
        attachments: [
          { kind: 'credit-note', id: note.id },
          { kind: 'invoice', id: invoice.id },
        ],
      },
      now,
    );
    return {
      creditNote: { id: note.id, number: noteNumber.number },
      invoice: { id: invoice.id, number: invoiceNumber.number },
    };
  });
}
