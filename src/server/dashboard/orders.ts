import type { z } from 'zod';
import type { AdminOrderDetail, CursorPage, OrderRow, ordersQuerySchema } from '../../shared/dashboard';
import type { AppContext } from '../kernel/context';
import { listOrders, type OrderListRow, orderDossier } from '../orders/read/operator';
import { taxDocumentRef, toAdminLicense } from './licenses';

/** The dashboard's read side of orders: the operator's one order list as a table page, and one order in full. */

export const toOrderRow = (row: OrderListRow): OrderRow => ({
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  email: row.customerEmail,
  customerName: row.customerName,
  tool: row.device ? `${row.toolName} (${row.device})` : row.toolName,
  amount: row.amount,
  currency: row.currency,
  status: row.status,
  razorpayOrderId: row.razorpayOrderId,
  razorpayPaymentId: row.razorpayPaymentId,
  couponCode: row.couponCode,
  discount: row.couponCode ? row.discount : null,
});

/** One page of the Orders table. */
export async function ordersPage(
  ctx: AppContext,
  query: z.output<typeof ordersQuerySchema>,
): Promise<CursorPage<OrderRow>> {
  const { rows, ...page } = await listOrders(ctx, query);
  return { items: rows.map(toOrderRow), ...page, pageSize: query.pageSize };
}

/** One order in full for the dashboard: the one read model (`orderDossier`), its license keys masked. */
export async function orderDetail(ctx: AppContext, id: string): Promise<AdminOrderDetail> {
  const order = await orderDossier(ctx, id);
  const tool = order.tool ?? { name: '', device: null };
  return {
    id: order.id,
    createdAt: order.createdAt.toISOString(),
    email: order.customer?.email ?? '',
    customerName: order.customer?.name ?? '',
    tool: tool.device ? `${tool.name} (${tool.device})` : tool.name,
    amount: order.amount,
    currency: order.currency,
    status: order.status,
    razorpayOrderId: order.razorpayOrderId,
    razorpayPaymentId: order.razorpayPaymentId,
    couponCode: order.couponCode,
    discount: order.discount,
    paidAt: order.paidAt?.toISOString() ?? null,
    failureReason: order.failureReason,
    billing: (order.billing ?? {}) as Record<string, unknown>,
    licenses: order.licenses.map(toAdminLicense),
    invoice: taxDocumentRef(order.id, order.invoice, 'invoice'),
    creditNote: taxDocumentRef(order.id, order.creditNote, 'credit-note'),
    tdsAmount: order.tdsAmount,
    buyerPan: order.buyerPan,
    proforma: order.proforma && {
      number: order.proforma.number,
      issuedAt: order.proforma.issuedAt.toISOString(),
      validUntil: order.proforma.validUntil.toISOString(),
      expiredAt: order.proforma.expiredAt?.toISOString() ?? null,
      pdfUrl: `/api/admin/orders/${order.id}/proforma.pdf`,
      paymentLinkUrl: order.proforma.paymentLinkUrl,
      amountDue: order.proforma.amountDue,
      received: order.proforma.received,
      lateToDecide: order.proforma.lateToDecide,
      receipts: order.proforma.receipts.map((receipt) => ({
        method: receipt.method,
        amount: receipt.amount,
        reference: receipt.reference,
        receivedOn: receipt.receivedOn,
        recordedBy: receipt.recordedBy,
        late: receipt.late,
        returnedAt: receipt.returnedAt?.toISOString() ?? null,
        returnReference: receipt.returnReference,
      })),
    },
    tdsCertificate: order.tdsCertificate && {
      fileName: order.tdsCertificate.fileName,
      uploadedAt: order.tdsCertificate.uploadedAt.toISOString(),
      checkedAt: order.tdsCertificate.checkedAt?.toISOString() ?? null,
      checkedBy: order.tdsCertificate.checkedBy,
      pdfUrl: `/api/admin/orders/${order.id}/tds-certificate.pdf`,
    },
    events: order.events.map((event) => ({
      id: event.id,
      kind: event.kind,
      detail: event.detail,
      createdAt: event.at.toISOString(),
    })),
    emails: order.emails.map((mail) => ({
      id: mail.id,
      subject: mail.subject,
      kind: mail.kind,
      status: mail.status,
      createdAt: mail.createdAt.toISOString(),
      sentAt: mail.sentAt?.toISOString() ?? null,
      lastError: mail.lastError,
    })),
  };
}
