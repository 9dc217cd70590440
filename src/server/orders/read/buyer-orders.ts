import { and, desc, eq, inArray, isNull, like, or } from 'drizzle-orm';
import { fromSubunits } from '../../../shared/money';
import { type OrderHistoryOrder, taxDocumentPath } from '../../../shared/order-history';
import { tools } from '../../db/schema/catalogue';
import { creditNotes, invoices } from '../../db/schema/invoices';
import { orders } from '../../db/schema/orders';
import type { AppContext } from '../../kernel/context';
import { toolLabel } from '../../licenses/delivery-email';
import { PROFORMA_ORDER_PREFIX } from '../proforma';

/**
 * The buyer's own paid and refunded orders with their current invoice and its credit note, and those awaiting
 * payment against a proforma invoice (issue 68), newest first.
 */
export async function listOwnOrders(
  ctx: Pick<AppContext, 'db'>,
  userId: string,
): Promise<OrderHistoryOrder[]> {
  const rows = await ctx.db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      toolName: tools.name,
      device: tools.device,
      amount: orders.amount,
      currency: orders.currency,
      status: orders.status,
      invoiceNumber: invoices.number,
      creditNoteNumber: creditNotes.number,
    })
    .from(orders)
    .innerJoin(tools, eq(tools.id, orders.toolId))
    .leftJoin(invoices, and(eq(invoices.orderId, orders.id), isNull(invoices.cancelledByCreditNoteId)))
    .leftJoin(creditNotes, eq(creditNotes.invoiceId, invoices.id))
    .where(
      and(
        eq(orders.userId, userId),
        or(
          inArray(orders.status, ['paid', 'refunded']),
          and(eq(orders.status, 'created'), like(orders.razorpayOrderId, `${PROFORMA_ORDER_PREFIX}%`)),
        ),
      ),
    )
    .orderBy(desc(orders.createdAt));
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    toolName: toolLabel(row.toolName, row.device),
    amount: fromSubunits(row.amount),
    currency: row.currency,
    status: row.status === 'created' ? 'awaiting-payment' : row.status === 'refunded' ? 'refunded' : 'paid',
    invoiceNumber: row.invoiceNumber,
    invoiceUrl: row.invoiceNumber ? taxDocumentPath(row.id, 'invoice') : null,
    creditNoteNumber: row.creditNoteNumber,
    creditNoteUrl: row.creditNoteNumber ? taxDocumentPath(row.id, 'credit-note') : null,
  }));
}
