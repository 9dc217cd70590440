import { asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { CursorPage, OrderDetail, OrderRow, ordersQuerySchema } from '../../shared/dashboard';
import { orderEvents, orders, outbox } from '../db/schema';
import { notFound } from '../http/errors';
import type { AppContext } from '../kernel/context';
import { type OrderListRow, listOrders as orderList, orderRowsQuery } from '../payments/orders-admin';
import { adminLicensesOf, orderTaxDocuments } from './licenses';

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

export async function listOrders(
  ctx: AppContext,
  query: z.output<typeof ordersQuerySchema>,
): Promise<CursorPage<OrderRow>> {
  const { rows, ...page } = await orderList(ctx, query);
  return { items: rows.map(toOrderRow), ...page, pageSize: query.pageSize };
}

export async function orderDetail(ctx: AppContext, id: string): Promise<OrderDetail> {
  const [[row], [extra]] = await Promise.all([
    orderRowsQuery(ctx.db).where(eq(orders.id, id)).limit(1),
    ctx.db
      .select({ failureReason: orders.failureReason, billing: orders.billing })
      .from(orders)
      .where(eq(orders.id, id)),
  ]);
  if (!row || !extra) throw notFound('No such order.');
  const [events, emails, licenses, documents] = await Promise.all([
    ctx.db
      .select({
        id: orderEvents.id,
        kind: orderEvents.kind,
        detail: orderEvents.detail,
        createdAt: orderEvents.createdAt,
      })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, id))
      .orderBy(asc(orderEvents.id)),
    ctx.db
      .select({
        id: outbox.id,
        subject: outbox.subject,
        kind: outbox.kind,
        status: outbox.status,
        createdAt: outbox.createdAt,
        sentAt: outbox.sentAt,
        lastError: outbox.lastError,
      })
      .from(outbox)
      .where(eq(outbox.ref, `order:${id}`))
      .orderBy(asc(outbox.id)),
    adminLicensesOf(ctx, { orderId: id }),
    orderTaxDocuments(ctx, id),
  ]);
  return {
    ...toOrderRow(row),
    paidAt: row.paidAt?.toISOString() ?? null,
    failureReason: extra.failureReason,
    billing: (extra.billing ?? {}) as Record<string, unknown>,
    licenses,
    ...documents,
    events: events.map((event) => ({ ...event, createdAt: event.createdAt.toISOString() })),
    emails: emails.map((mail) => ({
      ...mail,
      createdAt: mail.createdAt.toISOString(),
      sentAt: mail.sentAt?.toISOString() ?? null,
    })),
  };
}
