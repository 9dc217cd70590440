import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { id, ref, ts } from './columns';
import { orders } from './orders';

/**
 * The last number issued per document series and financial year. Issuing a number updates this row inside the
 * fulfilment or refund transaction, so concurrent issues queue on its lock and a rollback gives the number back:
 * numbers stay consecutive with no gap, which a database sequence cannot promise.
 */
export const documentCounters = pgTable(
  'document_counters',
  {
    series: text('series', { enum: ['invoice', 'credit-note', 'proforma'] }).notNull(),
    /** "26-27" for April 2026 to March 2027, India time. */
    financialYear: text('financial_year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.financialYear] })],
);

/**
 * Tax invoices of paid orders. `document` is the snapshot everything printed comes from (firm identity, buyer,
 * amounts, tax lines), written once and never updated; the columns beside it are copies for look-ups and the
 * accountant's GSTR-1 export. An order has one current invoice; correcting its billing details cancels it by a
 * credit note (`cancelled_by_credit_note_id`) and issues the next one (docs/decisions/050-billing-correction.md).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    number: text('number').notNull(),
    orderId: ref('order_id', () => orders.id),
    userId: ref('user_id', () => users.id),
    issuedAt: ts('issued_at').notNull(),
    supplyType: text('supply_type', {
      enum: ['intra-state', 'inter-state', 'export-lut', 'export-igst'],
    }).notNull(),
    buyerGstin: text('buyer_gstin'),
    currency: text('currency', { enum: ['INR', 'USD'] }).notNull(),
    total: integer('total').notNull(),
    document: jsonb('document').notNull(),
    /** The credit note that cancelled this invoice when the buyer corrected the billing details; null: current. */
    cancelledByCreditNoteId: uuid('cancelled_by_credit_note_id').references(
      (): AnyPgColumn => creditNotes.id,
    ),
  },
  (t) => [
    uniqueIndex('invoices_number_key').on(t.number),
    // Exactly one current invoice per order; cancelled ones stay beside it.
    uniqueIndex('invoices_current_order_id_key')
      .on(t.orderId)
      .where(sql`${t.cancelledByCreditNoteId} is null`),
    index('invoices_order_id_idx').on(t.orderId),
    index('invoices_user_id_idx').on(t.userId),
    index('invoices_issued_at_idx').on(t.issuedAt),
    // The GSTR-1 export reads a period in batches, keyset on (issued_at, number).
    index('invoices_issued_at_number_idx').on(t.issuedAt, t.number),
  ],
);

/**
 * Credit notes, one per invoice they credit (a refund's, or a billing correction's that cancels the invoice), with
 * their own number series; same snapshot rule as invoices.
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: id(),
    number: text('number').notNull(),
    invoiceId: ref('invoice_id', () => invoices.id),
    orderId: ref('order_id', () => orders.id),
    userId: ref('user_id', () => users.id),
    issuedAt: ts('issued_at').notNull(),
    currency: text('currency', { enum: ['INR', 'USD'] }).notNull(),
    total: integer('total').notNull(),
    document: jsonb('document').notNull(),
  },
  (t) => [
    uniqueIndex('credit_notes_number_key').on(t.number),
    uniqueIndex('credit_notes_invoice_id_key').on(t.invoiceId),
    index('credit_notes_user_id_idx').on(t.userId),
    index('credit_notes_issued_at_idx').on(t.issuedAt),
    index('credit_notes_issued_at_number_idx').on(t.issuedAt, t.number),
  ],
);

/**
 * Proforma invoices (issue 68): not tax documents, but numbered in their own gap-free series per financial year
 * (`PCAP/26-27/00001`) and frozen like them. `document` is everything printed (the order's lines and tax split,
 * TDS and the amount due, validity, the firm's bank details, the payment link); the order's payment state is the
 * orders' `proforma_terms`. One per order.
 */
export const proformaInvoices = pgTable(
  'proforma_invoices',
  {
    id: id(),
    number: text('number').notNull(),
    orderId: ref('order_id', () => orders.id),
    userId: ref('user_id', () => users.id),
    issuedAt: ts('issued_at').notNull(),
    total: integer('total').notNull(),
    amountDue: integer('amount_due').notNull(),
    document: jsonb('document').notNull(),
  },
  (t) => [
    uniqueIndex('proforma_invoices_number_key').on(t.number),
    uniqueIndex('proforma_invoices_order_id_key').on(t.orderId),
  ],
);
