import { and, eq, isNull, sql } from 'drizzle-orm';
import type { BillingDetails } from '../../shared/shop';
import type { DbOrTx, Tx } from '../db';
import { users } from '../db/schema/accounts';
import { creditNotes, invoices, proformaInvoices } from '../db/schema/invoices';
import { orders } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import {
  buildCreditNoteDocument,
  buildInvoiceDocument,
  buildProformaDocument,
  type PaidAgainstProforma,
  type TaxDocument,
} from './document';
import { nextDocumentNumber } from './numbering';

export type IssuedDocument = { id: string; number: string; document: TaxDocument };

/** The order's current invoice: the one no credit note has cancelled (at most one, by a partial unique index). */
export async function currentInvoiceOf(db: DbOrTx, orderId: string) {
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), isNull(invoices.cancelledByCreditNoteId)))
    .limit(1);
  return invoice;
}

/** A document issued before, as its issuing returns it. */
function issuedBefore(row: { id: string; number: string; document: unknown }): IssuedDocument {
  return { id: row.id, number: row.number, document: row.document as TaxDocument };
}

/**
 * The order an invoice or a proforma is issued for, the next number of that series, and what both print of the
 * order: the firm, the number and date, the buyer, the line, seats, amount and coupon.
 */
async function numberedOrder(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  tx: Tx,
  input: { orderId: string; itemDescription: string },
  series: 'invoice' | 'proforma',
) {
  const [row] = await tx
    .select({ order: orders, user: users })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, input.orderId));
  if (!row) throw new Error(`order ${input.orderId} not found for its ${series}`);
  const { order, user } = row;
  const issuedAt = ctx.clock.now();
  const firm = ctx.config.firm;
  const { number } = await nextDocumentNumber(tx, { series, prefix: firm.invoicePrefix, at: issuedAt });
  const printed = {
    firm,
    number,
    issuedAt,
    buyer: { name: user.name, email: user.email, billing: order.billing },
    itemDescription: input.itemDescription,
    seats: order.seats,
    currency: order.currency,
    total: order.amount,
    coupon:
      order.couponCode && order.listPrice !== null
        ? { code: order.couponCode, listPrice: order.listPrice }
        : null,
  };
  return { order, issuedAt, number, printed };
}

/**
 * Issues the tax invoice of a paid order inside the fulfilment transaction, so the invoice exists exactly when the
 * purchase does and its number is never lost to a rollback. An order that already has one gets it back unchanged.
 */
export async function issueInvoice(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  tx: Tx,
  input: {
    orderId: string;
    /** The line the order's kind prints (orders/kinds/). */
    itemDescription: string;
    razorpayPaymentId: string | null;
    settledInr?: number | null;
    /** An order paid against a proforma: its proforma, TDS and receipts, printed under the totals. */
    paidAgainst?: PaidAgainstProforma | null;
  },
): Promise<IssuedDocument> {
  const existing = await currentInvoiceOf(tx, input.orderId);
  if (existing) return issuedBefore(existing);
  const { order, issuedAt, number, printed } = await numberedOrder(ctx, tx, input, 'invoice');
  const document = buildInvoiceDocument({
    ...printed,
    settledInr: input.settledInr ?? null,
    payment: { razorpayOrderId: order.razorpayOrderId, razorpayPaymentId: input.razorpayPaymentId },
    paidAgainst: input.paidAgainst ?? null,
  });
  const [invoice] = await tx
    .insert(invoices)
    .values({
      number,
      orderId: order.id,
      userId: order.userId,
      issuedAt,
      supplyType: document.supplyType,
      buyerGstin: document.buyer.gstin,
      currency: document.currency,
      total: document.total,
      document,
    })
    .returning({ id: invoices.id });
  if (!invoice) throw new Error('invoice insert returned no row');
  return { id: invoice.id, number, document };
}

/**
 * Issues the proforma invoice of an order about to be paid against it (issue 68), inside the caller's transaction:
 * the next number of its own gap-free series, and a frozen snapshot of the order as its tax invoice will print it,
 * with TDS, the amount due, the validity and the ways to pay. An order that has one gets it back unchanged.
 */
export async function issueProforma(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  tx: Tx,
  input: {
    orderId: string;
    itemDescription: string;
    /** The last day it can be paid, India time (YYYY-MM-DD). */
    validUntil: string;
    paymentLinkUrl: string | null;
  },
): Promise<IssuedDocument> {
  const [existing] = await tx
    .select()
    .from(proformaInvoices)
    .where(eq(proformaInvoices.orderId, input.orderId));
  if (existing) return issuedBefore(existing);
  const { order, issuedAt, number, printed } = await numberedOrder(ctx, tx, input, 'proforma');
  const document = buildProformaDocument({
    ...printed,
    validUntil: input.validUntil,
    tdsPan: order.tdsAmount > 0 ? order.buyerPan : null,
    paymentLinkUrl: input.paymentLinkUrl,
  });
  // The order was priced by the same function: a proforma that disagrees with it must never be issued.
  if (document.proforma?.amountDue !== order.amount - order.tdsAmount)
    throw new Error(`order ${order.id}: the proforma's amount due differs from the order's`);
  const [proforma] = await tx
    .insert(proformaInvoices)
    .values({
      number,
      orderId: order.id,
      userId: order.userId,
      issuedAt,
      total: document.total,
      amountDue: document.proforma.amountDue,
      document,
    })
    .returning({ id: proformaInvoices.id });
  if (!proforma) throw new Error('proforma insert returned no row');
  return { id: proforma.id, number, document };
}

/**
 * Issues the credit note of a refund inside the refund transaction, against the order's current invoice. Orders
 * paid before invoices existed have no invoice to correct and get none (null); a second call for the same invoice
 * returns the first credit note.
 */
export async function issueCreditNote(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  tx: Tx,
  input: { orderId: string; amount: number; reason: string | null },
): Promise<IssuedDocument | null> {
  const invoice = await currentInvoiceOf(tx, input.orderId);
  if (!invoice) return null;
  const [existing] = await tx
    .select()
    .from(creditNotes)
    .where(eq(creditNotes.invoiceId, invoice.id))
    .limit(1);
  if (existing) return issuedBefore(existing);

  const issuedAt = ctx.clock.now();
  const firm = ctx.config.firm;
  const { number } = await nextDocumentNumber(tx, {
    series: 'credit-note',
    prefix: firm.invoicePrefix,
    at: issuedAt,
  });
  const document = buildCreditNoteDocument({
    invoice: invoice.document as TaxDocument,
    firm,
    number,
    issuedAt,
    amount: input.amount,
    reason: input.reason,
  });
  const [note] = await tx
    .insert(creditNotes)
    .values({
      number,
      invoiceId: invoice.id,
      orderId: input.orderId,
      userId: invoice.userId,
      issuedAt,
      currency: document.currency,
      total: document.total,
      document,
    })
    .returning({ id: creditNotes.id });
  if (!note) throw new Error('credit note insert returned no row');
  return { id: note.id, number, document };
}

/**
 * A correction of the buyer's billing details (orders/billing-correction.ts), inside its transaction: a credit note
 * for the full value cancels the current invoice, and a new invoice with the same lines and amounts, taxed for the
 * new billing, replaces it (CGST Act s. 34; docs/decisions/050-billing-correction.md).
 */
export async function reissueInvoice(
  ctx: Pick<AppContext, 'config'>,
  tx: Tx,
  input: { current: { id: string; document: TaxDocument }; billing: BillingDetails; now: Date },
): Promise<{ creditNote: { id: string; number: string }; invoice: { id: string; number: string } }> {
  const { current, billing, now } = input;
  const was = current.document;
  const [row] = await tx
    .select({ orderId: invoices.orderId, userId: invoices.userId })
    .from(invoices)
    .where(eq(invoices.id, current.id));
  if (!row) throw new Error(`invoice ${current.id} not found`);
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
      orderId: row.orderId,
      userId: row.userId,
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
    paidAgainst: was.paidAgainst ?? null,
  });
  const [invoice] = await tx
    .insert(invoices)
    .values({
      number: invoiceNumber.number,
      orderId: row.orderId,
      userId: row.userId,
      issuedAt: now,
      supplyType: invoiceDocument.supplyType,
      buyerGstin: invoiceDocument.buyer.gstin,
      currency: invoiceDocument.currency,
      total: invoiceDocument.total,
      document: invoiceDocument,
    })
    .returning({ id: invoices.id });
  if (!invoice) throw new Error('invoice insert returned no row');
  return {
    creditNote: { id: note.id, number: noteNumber.number },
    invoice: { id: invoice.id, number: invoiceNumber.number },
  };
}

/** Erasure: issued documents keep the name and address the law requires; the address they were emailed to goes. */
export async function blankBuyerEmails(tx: Tx, userId: string): Promise<void> {
  for (const table of ['invoices', 'credit_notes']) {
    await tx.execute(
      sql`update ${sql.identifier(table)} set document = jsonb_set(document, '{buyer,email}', '""')
          where user_id = ${userId}`,
    );
  }
}
