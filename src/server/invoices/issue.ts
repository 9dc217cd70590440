import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db';
import { users } from '../db/schema/accounts';
import { creditNotes, invoices } from '../db/schema/invoices';
import { orders } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import { buildCreditNoteDocument, buildInvoiceDocument, type TaxDocument } from './document';
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
  },
): Promise<IssuedDocument> {
  const existing = await currentInvoiceOf(tx, input.orderId);
  if (existing)
    return { id: existing.id, number: existing.number, document: existing.document as TaxDocument };

  const [row] = await tx
    .select({ order: orders, user: users })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, input.orderId));
  if (!row) throw new Error(`order ${input.orderId} not found for its invoice`);
  const { order, user } = row;

  const issuedAt = ctx.clock.now();
  const firm = ctx.config.firm;
  const { number } = await nextDocumentNumber(tx, {
    series: 'invoice',
    prefix: firm.invoicePrefix,
    at: issuedAt,
  });
  const document = buildInvoiceDocument({
    firm,
    number,
    issuedAt,
    buyer: { name: user.name, email: user.email, billing: order.billing },
    itemDescription: input.itemDescription,
    seats: order.seats,
    currency: order.currency,
    total: order.amount,
    settledInr: input.settledInr ?? null,
    payment: { razorpayOrderId: order.razorpayOrderId, razorpayPaymentId: input.razorpayPaymentId },
    coupon:
      order.couponCode && order.listPrice !== null
        ? { code: order.couponCode, listPrice: order.listPrice }
        : null,
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
  if (existing)
    return { id: existing.id, number: existing.number, document: existing.document as TaxDocument };

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
