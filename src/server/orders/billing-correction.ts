import { asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { BILLING_COUNTRY_INDIA } from '../../shared/billing';
import {
  BILLING_CORRECTION_MESSAGES,
  type billingCorrectionSchema,
  correctionDeadlineText,
} from '../../shared/billing-correction';
import { orderPagePath } from '../../shared/order-detail';
import { invoices } from '../db/schema/invoices';
import { orders } from '../db/schema/orders';
import type { TaxDocument } from '../invoices/document';
import { currentInvoiceOf, reissueInvoice } from '../invoices/issue';
import { indiaDate } from '../invoices/numbering';
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
      throw new DomainError(
        'refused',
        BILLING_CORRECTION_MESSAGES.pastDeadline(correctionDeadlineText(deadline)),
      );

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

    const { creditNote, invoice } = await reissueInvoice(ctx, tx, {
      current: { id: current.id, document: was },
      billing,
      now,
    });
    await tx.update(orders).set({ billing, updatedAt: now }).where(eq(orders.id, order.id));

    const facts = {
      cancelledInvoice: was.number,
      creditNote: creditNote.number,
      invoice: invoice.number,
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
          subject: `Your corrected tax invoice ${invoice.number} for ${label}`,
          heading: 'Your billing details are corrected',
          blocks: [
            {
              kind: 'paragraph',
              text: `Hello ${user.name}, as you asked, invoice ${was.number} is cancelled by credit note ${creditNote.number}, and invoice ${invoice.number} replaces it with your new billing details. Both are attached.`,
            },
            {
              kind: 'details',
              rows: [
                ['Cancelled invoice', was.number],
                ['Credit note', creditNote.number],
                ['New invoice', invoice.number],
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
          { kind: 'credit-note', id: creditNote.id },
          { kind: 'invoice', id: invoice.id },
        ],
      },
      now,
    );
    return {
      creditNote,
      invoice,
    };
  });
}
