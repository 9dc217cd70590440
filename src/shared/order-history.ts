import type { Currency } from './constants';

/** The buyer's order history (docs/product.md §12), shared by the server and My Tools. */

/** What the buyer sees of an order's status: only paid and refunded orders are listed. */
export type OrderHistoryStatus = 'paid' | 'refunded';
export type TaxDocumentKind = 'invoice' | 'credit-note';

/** GET /api/orders/ → OrderSummary[], newest first: the signed-in buyer's own paid and refunded orders. */
export type OrderSummary = {
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

/** "PCA/26-27/00001" → "Invoice-PCA-26-27-00001.pdf": the name a download is saved under. */
export function taxDocumentFileName(kind: TaxDocumentKind, number: string): string {
  return `${kind === 'invoice' ? 'Invoice' : 'Credit-note'}-${number.replace(/[^A-Za-z0-9-]+/g, '-')}.pdf`;
}
