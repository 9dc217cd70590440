import { and, asc, count, desc, eq, gt, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/orders';
import type { AppContext } from '../context';
import type { DataSecrets } from '../data-secrets';
import type { DbOrTx } from '../db';
import {
  creditNotes,
  downloadTokens,
  invoices,
  licenses,
  orderEvents,
  orders,
  outbox,
  purchases,
  tools,
  users,
} from '../db/schema';
import { findByTypedId } from '../db/typed-id';
import { revealLicenseKey, revealPassword } from '../licenses/secrets-at-rest';

/** The operator's view of orders: finding one however it is named, lists, and everything support needs. */

type OrderRow = typeof orders.$inferSelect;

/** An order by its id (or the start of it), its Razorpay order id (order_…) or its payment id (pay_…). */
export function findOrder(db: DbOrTx, typed: string): Promise<OrderRow> {
  const text = typed.trim();
  const alternative = /^order_\w+$/.test(text)
    ? eq(orders.razorpayOrderId, text)
    : /^pay_\w+$/.test(text)
      ? eq(orders.razorpayPaymentId, text)
      : undefined;
  return findByTypedId({
    idColumn: orders.id,
    typed: text,
    noun: 'order',
    listCommand: 'orders list',
    alternative,
    select: (where) => db.select().from(orders).where(where).limit(2),
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;
const istMidnight = (day: string) => new Date(`${day}T00:00:00+05:30`);
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
const SORT_COLUMNS = { createdAt: orders.createdAt, amount: orders.amount, status: orders.status };

/** Which orders, in which order: the dashboard's table and the command line's `orders list` alike. */
export type OrderQuery = {
  /** What the operator typed in the dashboard's search box (see `searchCondition`). */
  q?: string;
  status?: OrderStatus;
  /** The customer's email, any letter case. */
  email?: string;
  /** Calendar days in India, both included. */
  from?: string;
  to?: string;
  since?: Date;
  sort: keyof typeof SORT_COLUMNS;
  dir: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

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

function orderConditions(query: OrderQuery): SQL | undefined {
  const conditions: Array<SQL | undefined> = [
    query.q ? searchCondition(query.q) : undefined,
    query.status ? eq(orders.status, query.status) : undefined,
    query.email ? sql`lower(${users.email}) = lower(${query.email})` : undefined,
    query.from ? gte(orders.createdAt, istMidnight(query.from)) : undefined,
    query.to ? lt(orders.createdAt, new Date(istMidnight(query.to).getTime() + DAY_MS)) : undefined,
    query.since ? gte(orders.createdAt, query.since) : undefined,
  ];
  return and(...conditions);
}

/** Orders with their customer and tool, as every operator list shows them. */
export function orderRowsQuery(db: DbOrTx) {
  return db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      status: orders.status,
      amount: orders.amount,
      currency: orders.currency,
      razorpayOrderId: orders.razorpayOrderId,
      razorpayPaymentId: orders.razorpayPaymentId,
      couponCode: orders.couponCode,
      discount: orders.discount,
      customerEmail: users.email,
      customerName: users.name,
      toolId: tools.id,
      toolName: tools.name,
      device: tools.device,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(tools, eq(tools.id, orders.toolId));
}

export type OrderListRow = Awaited<ReturnType<typeof orderRowsQuery>>[number];

/** THE list of orders (one page of it, and how many match), for the dashboard and the command line. */
export async function listOrders(
  ctx: AppContext,
  query: OrderQuery,
): Promise<{ rows: OrderListRow[]; total: number }> {
  const where = orderConditions(query);
  const order = query.dir === 'asc' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    orderRowsQuery(ctx.db)
      .where(where)
      .orderBy(order(SORT_COLUMNS[query.sort]), order(orders.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(orders).innerJoin(users, eq(users.id, orders.userId)).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** Everything about one order that support needs, read in one go. */
export async function orderDossier(db: DbOrTx, order: OrderRow, now: Date, secrets: DataSecrets) {
  const [customer] = await db
    .select({ id: users.id, name: users.name, email: users.email, phone: users.phone })
    .from(users)
    .where(eq(users.id, order.userId));
  const [tool] = await db
    .select({ id: tools.id, name: tools.name, device: tools.device, delivery: tools.delivery })
    .from(tools)
    .where(eq(tools.id, order.toolId));
  const [owned] = await db
    .select({ purchase: purchases, license: licenses })
    .from(purchases)
    .leftJoin(licenses, eq(licenses.purchaseId, purchases.id))
    .where(eq(purchases.orderId, order.id));
  const [links] = owned
    ? await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(downloadTokens)
        .where(and(eq(downloadTokens.purchaseId, owned.purchase.id), gt(downloadTokens.expiresAt, now)))
    : [];
  const events = await db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, order.id))
    .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id));
  const emails = await db
    .select({
      id: outbox.id,
      kind: outbox.kind,
      to: outbox.to,
      subject: outbox.subject,
      status: outbox.status,
      attempts: outbox.attempts,
      lastError: outbox.lastError,
      createdAt: outbox.createdAt,
      sentAt: outbox.sentAt,
    })
    .from(outbox)
    .where(eq(outbox.ref, `order:${order.id}`))
    .orderBy(asc(outbox.id));
  return {
    id: order.id,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    razorpayOrderId: order.razorpayOrderId,
    razorpayPaymentId: order.razorpayPaymentId,
    failureReason: order.failureReason,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    updatedAt: order.updatedAt,
    billing: order.billing,
    customer: customer ?? null,
    tool: tool ?? null,
    purchase: owned
      ? {
          id: owned.purchase.id,
          createdAt: owned.purchase.createdAt,
          refundedAt: owned.purchase.refundedAt,
          liveDownloadLinks: links?.n ?? 0,
          license: owned.license
            ? {
                licenseKey: revealLicenseKey(secrets, owned.license),
                username: owned.license.username,
                password: revealPassword(secrets, owned.license),
              }
            : null,
        }
      : null,
    events: events.map((event) => ({ at: event.createdAt, kind: event.kind, detail: event.detail })),
    emails,
  };
}

export type OrderDossier = Awaited<ReturnType<typeof orderDossier>>;
