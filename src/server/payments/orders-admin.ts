import { and, asc, desc, eq, gt, gte, type SQL, sql } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/orders';
import type { AppContext } from '../context';
import type { DataSecrets } from '../data-secrets';
import type { DbOrTx } from '../db';
import { downloadTokens, licenses, orderEvents, orders, outbox, purchases, tools, users } from '../db/schema';
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

export type OrderFilter = {
  status?: OrderStatus;
  /** The customer's email, any letter case. */
  email?: string;
  since?: Date;
  limit: number;
};

/** Orders, newest first, with their customer and tool. */
export async function listOrders(ctx: AppContext, filter: OrderFilter) {
  const conditions: SQL[] = [];
  if (filter.status !== undefined) conditions.push(eq(orders.status, filter.status));
  if (filter.email !== undefined) conditions.push(sql`lower(${users.email}) = lower(${filter.email})`);
  if (filter.since !== undefined) conditions.push(gte(orders.createdAt, filter.since));
  return ctx.db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      status: orders.status,
      amount: orders.amount,
      currency: orders.currency,
      razorpayOrderId: orders.razorpayOrderId,
      razorpayPaymentId: orders.razorpayPaymentId,
      customerEmail: users.email,
      customerName: users.name,
      toolId: tools.id,
      toolName: tools.name,
      device: tools.device,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(tools, eq(tools.id, orders.toolId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(filter.limit);
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
