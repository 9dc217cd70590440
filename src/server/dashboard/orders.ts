import { and, asc, count, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { OrderDetail, OrderRow, ordersQuerySchema, Page } from '../../shared/dashboard';
import type { AppContext } from '../context';
import { creditNotes, invoices, orderEvents, orders, outbox, tools, users } from '../db/schema';
import { notFound } from '../http/errors';
import { adminLicensesOf, orderTaxDocuments } from './licenses';

/** The dashboard's read side of orders: search, filters, server-side paging and sorting, and one order in full. */

const DAY_MS = 24 * 60 * 60 * 1000;
const istMidnight = (day: string) => new Date(`${day}T00:00:00+05:30`);
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
const SORT_COLUMNS = { createdAt: orders.createdAt, amount: orders.amount, status: orders.status };

/**
 * What the operator typed: a Razorpay order or payment id, an invoice or credit-note number, the start of our id,
 * or (part of) an email.
 */
function searchCondition(q: string): SQL | undefined {
  if (/^order_\w+$/.test(q)) return eq(orders.razorpayOrderId, q);
  if (/^pay_\w+$/.test(q)) return eq(orders.razorpayPaymentId, q);
  const number = q.toUpperCase();
  const taxDocument = or(
    sql`exists (select 1 from ${invoices} where ${invoices.orderId} = ${orders.id} and ${invoices.number} = ${number})`,
    sql`exists (select 1 from ${creditNotes} where ${creditNotes.orderId} = ${orders.id} and ${creditNotes.number} = ${number})`,
  );
  const email = ilike(users.email, likePattern(q));
  if (/^[0-9a-f-]{4,36}$/i.test(q))
    return or(email, taxDocument, sql`${orders.id}::text like ${`${q.toLowerCase()}%`}`);
  return or(email, taxDocument);
}

const rowColumns = {
  id: orders.id,
  createdAt: orders.createdAt,
  email: users.email,
  customerName: users.name,
  tool: tools.name,
  device: tools.device,
  amount: orders.amount,
  currency: orders.currency,
  status: orders.status,
  razorpayOrderId: orders.razorpayOrderId,
  razorpayPaymentId: orders.razorpayPaymentId,
};

type RawRow = {
  id: string;
  createdAt: Date;
  email: string;
  customerName: string;
  tool: string;
  device: string | null;
  amount: number;
  currency: 'INR' | 'USD';
  status: OrderRow['status'];
  razorpayOrderId: string;
  razorpayPaymentId: string | null;
};

export const toOrderRow = ({ device, createdAt, ...row }: RawRow): OrderRow => ({
  ...row,
  tool: device ? `${row.tool} (${device})` : row.tool,
  createdAt: createdAt.toISOString(),
});

export function orderRowsQuery(ctx: AppContext) {
  return ctx.db
    .select(rowColumns)
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(tools, eq(tools.id, orders.toolId));
}

export async function listOrders(
  ctx: AppContext,
  query: z.output<typeof ordersQuerySchema>,
): Promise<Page<OrderRow>> {
  const conditions: SQL[] = [];
  if (query.q) {
    const condition = searchCondition(query.q);
    if (condition) conditions.push(condition);
  }
  if (query.status) conditions.push(eq(orders.status, query.status));
  if (query.from) conditions.push(gte(orders.createdAt, istMidnight(query.from)));
  if (query.to) conditions.push(lt(orders.createdAt, new Date(istMidnight(query.to).getTime() + DAY_MS)));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const order = query.dir === 'asc' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    orderRowsQuery(ctx)
      .where(where)
      .orderBy(order(SORT_COLUMNS[query.sort]), order(orders.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(orders).innerJoin(users, eq(users.id, orders.userId)).where(where),
  ]);
  return {
    items: rows.map(toOrderRow),
    total: Number(total?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function orderDetail(ctx: AppContext, id: string): Promise<OrderDetail> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('No such order.');
  const [row] = await ctx.db
    .select({
      ...rowColumns,
      paidAt: orders.paidAt,
      failureReason: orders.failureReason,
      billing: orders.billing,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(tools, eq(tools.id, orders.toolId))
    .where(eq(orders.id, id))
    .limit(1);
  if (!row) throw notFound('No such order.');
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
  const { paidAt, failureReason, billing, ...base } = row;
  return {
    ...toOrderRow(base),
    paidAt: paidAt?.toISOString() ?? null,
    failureReason,
    billing: (billing ?? {}) as Record<string, unknown>,
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
