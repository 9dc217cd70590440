import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { OrderDocumentKind, TaxDocumentKind } from '../../shared/order-history';
import { creditNotes, invoices, proformaInvoices } from '../db/schema/invoices';
import type { AppContext } from '../kernel/context';
import type { TaxDocument } from './document';

/**
 * A tax document of an order, only when `userId` owns it: anyone else learns nothing, not even that it exists.
 * Without a document id: the current invoice, or the latest credit note.
 */
export function findOwnTaxDocument(
  ctx: Pick<AppContext, 'db'>,
  input: { userId: string; orderId: string; kind: TaxDocumentKind; documentId?: string },
): Promise<{ number: string; document: TaxDocument } | undefined> {
  return orderTaxDocument(ctx, input, (table) =>
    and(eq(table.orderId, input.orderId), eq(table.userId, input.userId)),
  );
}

/** A tax document of any order: for the operator, who sees every order. */
export function findOrderTaxDocument(
  ctx: Pick<AppContext, 'db'>,
  input: { orderId: string; kind: TaxDocumentKind; documentId?: string },
): Promise<{ number: string; document: TaxDocument } | undefined> {
  return orderTaxDocument(ctx, input, (table) => eq(table.orderId, input.orderId));
}

async function orderTaxDocument(
  ctx: Pick<AppContext, 'db'>,
  input: { kind: TaxDocumentKind; documentId?: string },
  where: (table: typeof invoices | typeof creditNotes) => SQL | undefined,
): Promise<{ number: string; document: TaxDocument } | undefined> {
  const table = input.kind === 'invoice' ? invoices : creditNotes;
  const which = input.documentId
    ? eq(table.id, input.documentId)
    : input.kind === 'invoice'
      ? isNull(invoices.cancelledByCreditNoteId)
      : undefined;
  const [row] = await ctx.db
    .select({ number: table.number, document: table.document })
    .from(table)
    .where(and(where(table), which))
    .orderBy(desc(table.issuedAt))
    .limit(1);
  return row ? { number: row.number, document: row.document as TaxDocument } : undefined;
}

/** The numbers and dates of an order's current invoice and latest credit note, where they exist. */
export async function taxDocumentsOfOrder(ctx: Pick<AppContext, 'db'>, orderId: string) {
  const [invoice] = await ctx.db
    .select({ number: invoices.number, issuedAt: invoices.issuedAt })
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), isNull(invoices.cancelledByCreditNoteId)))
    .limit(1);
  const [creditNote] = await ctx.db
    .select({ number: creditNotes.number, issuedAt: creditNotes.issuedAt })
    .from(creditNotes)
    .where(eq(creditNotes.orderId, orderId))
    .orderBy(desc(creditNotes.issuedAt))
    .limit(1);
  return { invoice: invoice ?? null, creditNote: creditNote ?? null };
}

/** An order's proforma invoice (issue 68); with `userId`, only when that buyer owns the order. */
export async function findProforma(
  ctx: Pick<AppContext, 'db'>,
  input: { orderId: string; userId?: string },
): Promise<{ id: string; number: string; issuedAt: Date; document: TaxDocument } | undefined> {
  const [row] = await ctx.db
    .select({
      id: proformaInvoices.id,
      number: proformaInvoices.number,
      issuedAt: proformaInvoices.issuedAt,
      document: proformaInvoices.document,
    })
    .from(proformaInvoices)
    .where(
      and(
        eq(proformaInvoices.orderId, input.orderId),
        input.userId ? eq(proformaInvoices.userId, input.userId) : undefined,
      ),
    );
  return row ? { ...row, document: row.document as TaxDocument } : undefined;
}

/** A document by its id, for the mail worker attaching it to an email. */
export async function findTaxDocument(
  ctx: Pick<AppContext, 'db'>,
  kind: OrderDocumentKind,
  id: string,
): Promise<{ number: string; document: TaxDocument } | undefined> {
  const table = kind === 'invoice' ? invoices : kind === 'credit-note' ? creditNotes : proformaInvoices;
  const [row] = await ctx.db
    .select({ number: table.number, document: table.document })
    .from(table)
    .where(eq(table.id, id))
    .limit(1);
  return row ? { number: row.number, document: row.document as TaxDocument } : undefined;
}
