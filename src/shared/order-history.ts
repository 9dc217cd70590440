import type { Currency } from './constants';

/** The buyer's order history (docs/product.md §12), shared by the server and My Tools. */

/**
 * What the buyer sees of an order's status: paid and refunded orders are listed, and orders awaiting payment against
 * a proforma invoice (issue 68).
 */
export type OrderHistoryStatus = 'paid' | 'refunded' | 'awaiting-payment';
export type TaxDocumentKind = 'invoice' | 'credit-note';
/** The documents of an order: its tax documents, and the proforma invoice it was paid against (issue 68). */
export type OrderDocumentKind = TaxDocumentKind | 'proforma';

/** GET /api/orders/ → OrderHistoryOrder[], newest first: the signed-in buyer's own paid and refunded orders. */
export type OrderHistoryOrder = {
  id: string;
  /** ISO timestamp of the order. */
  createdAt: string;
  /** The tool and its edition, e.g. "PDF Toolkit (Windows)". */
  toolName: string;
  /** In major units (rupees, dollars), like every amount the shop's API returns. */
  amount: number;
  currency: Currency;
  status: OrderHistoryStatus;
  invoiceNumber: string | null;
  /** Answers only the order's owner; anyone else gets 404. */
  invoiceUrl: string | null;
  creditNoteNumber: string | null;
  creditNoteUrl: string | null;
};

/**
 * Where a tax document of an order is downloaded: `invoice.pdf` is the order's current invoice and
 * `credit-note.pdf` its latest credit note; with a document id, that very document (an order whose billing details
 * were corrected has a cancelled invoice and the credit note that cancelled it beside the current ones).
 */
export function taxDocumentPath(orderId: string, kind: TaxDocumentKind, documentId?: string): string {
  return `/api/orders/${orderId}/${kind}${documentId ? `-${documentId}` : ''}.pdf`;
}

const FILE_NAME_WORDS: Record<OrderDocumentKind, string> = {
  invoice: 'Invoice',
  'credit-note': 'Credit-note',
  proforma: 'Proforma-invoice',
};

/** "PCA/26-27/00001" → "Invoice-PCA-26-27-00001.pdf": the name a download is saved under. */
export function taxDocumentFileName(kind: OrderDocumentKind, number: string): string {
  return `${FILE_NAME_WORDS[kind]}-${number.replace(/[^A-Za-z0-9-]+/g, '-')}.pdf`;
}
