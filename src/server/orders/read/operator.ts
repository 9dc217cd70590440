import { and, asc, between, desc, eq, gt, gte, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { OrderStatus } from '../../../shared/orders';
import { emailMatches, findAccount } from '../../auth/users';
import type { DbOrTx } from '../../db';
import { countedKeysetPage, MATCHING_ROW } from '../../db/keyset';
import { users } from '../../db/schema/accounts';
import { tools } from '../../db/schema/catalogue';
import { downloadTokens } from '../../db/schema/downloads';
import { creditNotes, invoices, proformaInvoices } from '../../db/schema/invoices';
import { licenses } from '../../db/schema/licenses';
import { outbox } from '../../db/schema/mail';
import {
  orderEvents,
  orderReceipts,
  orders,
  proformaTerms,
  purchases,
  tdsCertificates,
} from '../../db/schema/orders';
import { findByTypedId } from '../../db/typed-id';
import { taxDocumentsOfOrder } from '../../invoices/lookup';
import type { AppContext } from '../../kernel/context';
import { DomainError } from '../../kernel/domain-error';
import { licensesOf } from '../../licenses/operator';
import { revealLicenseKey, revealPassword } from '../../licenses/secrets-at-rest';

/** The operator's view of orders: finding one however it is named, lists, and everything support needs. */

type StoredOrder = typeof orders.$inferSelect;

/**
 * An order by its id (or the start of it), its Razorpay order id (order_…), its payment id (pay_…) or its proforma
 * invoice's number (`PCAP/26-27/00001`, what a bank transfer quotes).
 */
export function findOrder(db: DbOrTx, typed: string): Promise<StoredOrder> {
  const text = typed.trim();
  const alternative = /^order_\w+$/.test(text)
    ? eq(orders.razorpayOrderId, text)
    : /^pay_\w+$/.test(text)
      ? eq(orders.razorpayPaymentId, text)
      : text.includes('/')
        ? inArray(
            orders.id,
            db
              .select({ id: proformaInvoices.orderId })
              .from(proformaInvoices)
              .where(eq(proformaInvoices.number, text.toUpperCase())),
          )
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
  /** Keyset cursors (db/keyset.ts): the id of the row the page follows, or precedes. */
  after?: string;
  before?: string;
  pageSize: number;
};

/**
 * What the operator typed, recognised by its shape so that each is one index look-up and none reads every order:
 * a Razorpay order or payment id, an invoice or credit-note number (it has a `/`), the start of our id (4 or more
 * hex digits), or else the start or end of the customer's email (`asha.`, `@example.com`).
 */
function searchCondition(q: string): SQL {
  if (/^order_\w+$/.test(q)) return eq(orders.razorpayOrderId, q);
  if (/^pay_\w+$/.test(q)) return eq(orders.razorpayPaymentId, q);
  if (q.includes('/')) {
    const number = q.toUpperCase();
    return sql`${orders.id} in (select ${invoices.orderId} from ${invoices} where ${invoices.number} = ${number} union all select ${creditNotes.orderId} from ${creditNotes} where ${creditNotes.number} = ${number} union all select ${proformaInvoices.orderId} from ${proformaInvoices} where ${proformaInvoices.number} = ${number})`;
  }
  const hex = q.replaceAll('-', '').toLowerCase();
  if (/^[0-9a-f]{4,32}$/.test(hex)) {
    // The start of an id as a range of ids, which the primary key's index answers.
    const asUuid = (digits: string) => digits.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    return between(orders.id, asUuid(hex.padEnd(32, '0')), asUuid(hex.padEnd(32, 'f')));
  }
  return emailMatches(q);
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
): Promise<{
  rows: OrderListRow[];
  total: number;
  totalCapped: boolean;
  next: string | null;
  previous: string | null;
}> {
  const where = orderConditions(query);
  return countedKeysetPage(
    ctx.db,
    { ...query, table: orders, sort: SORT_COLUMNS[query.sort], id: orders.id, idType: 'uuid' },
    where,
    orderRowsQuery(ctx.db).$dynamic(),
    ctx.db.select(MATCHING_ROW).from(orders).innerJoin(users, eq(users.id, orders.userId)).$dynamic(),
  );
}

/**
 * THE one customer in full, as the dashboard's customer page and `npm run admin -- users show` both read it: the
 * account with its counts, and its orders newest first, each with the purchase it made (none for an order not paid,
 * refunded if it was). Found by id (the dashboard) or by email in any letter case (the command line).
 */
export async function customerDossier(ctx: Pick<AppContext, 'db'>, by: { id: string } | { email: string }) {
  const account = await findAccount(ctx, by);
  if (!account) {
    throw new DomainError(
      'not_found',
      'id' in by ? 'No such customer.' : `No account with email ${by.email}.`,
    );
  }
  const [orderList, purchaseList] = await Promise.all([
    orderRowsQuery(ctx.db).where(eq(orders.userId, account.id)).orderBy(desc(orders.createdAt)),
    ctx.db
      .select({
        id: purchases.id,
        orderId: purchases.orderId,
        createdAt: purchases.createdAt,
        refundedAt: purchases.refundedAt,
      })
      .from(purchases)
      .where(eq(purchases.userId, account.id)),
  ]);
  const purchaseOf = new Map(purchaseList.map((purchase) => [purchase.orderId, purchase]));
  return {
    account,
    orders: orderList.map((order) => ({ ...order, purchase: purchaseOf.get(order.id) ?? null })),
  };
}

/**
 * THE one order in full, as the dashboard's order page and `npm run admin -- orders show` both read it: the order,
 * its customer and tool, purchase and license (revealed: each adapter masks what it must), licenses with their
 * machines, tax documents, history and emails. Each adapter renders its own shape from it.
 */
export async function orderDossier(ctx: Pick<AppContext, 'db' | 'clock' | 'dataSecrets'>, orderId: string) {
  const { db } = ctx;
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) throw new DomainError('not_found', 'No such order.');
  const now = ctx.clock.now();
  const [[customer], [tool], [owned], events, emails, licensesOfOrder, documents, proforma, [certificate]] =
    await Promise.all([
      db
        .select({ id: users.id, name: users.name, email: users.email, phone: users.phone })
        .from(users)
        .where(eq(users.id, order.userId)),
      db
        .select({ id: tools.id, name: tools.name, device: tools.device, delivery: tools.delivery })
        .from(tools)
        .where(eq(tools.id, order.toolId)),
      db
        .select({ purchase: purchases, license: licenses })
        .from(purchases)
        .leftJoin(licenses, and(eq(licenses.purchaseId, purchases.id), isNull(licenses.teamLicenseId)))
        .where(eq(purchases.orderId, order.id)),
      db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(asc(orderEvents.id)),
      db
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
        .orderBy(asc(outbox.id)),
      licensesOf(ctx, { orderId: order.id }),
      taxDocumentsOfOrder(ctx, order.id),
      proformaPaymentOf(db, order),
      db.select().from(tdsCertificates).where(eq(tdsCertificates.orderId, order.id)),
    ]);
  const [links] = owned
    ? await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(downloadTokens)
        .where(and(eq(downloadTokens.purchaseId, owned.purchase.id), gt(downloadTokens.expiresAt, now)))
    : [];
  return {
    id: order.id,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    couponCode: order.couponCode,
    discount: order.couponCode ? order.discount : null,
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
                licenseKey: revealLicenseKey(ctx.dataSecrets, owned.license),
                username: owned.license.username,
                password: revealPassword(ctx.dataSecrets, owned.license),
              }
            : null,
        }
      : null,
    licenses: licensesOfOrder,
    invoice: documents.invoice,
    creditNote: documents.creditNote,
    tdsAmount: order.tdsAmount,
    buyerPan: order.buyerPan,
    proforma,
    tdsCertificate: certificate
      ? {
          fileName: certificate.fileName,
          size: certificate.size,
          sha256: certificate.sha256,
          uploadedAt: certificate.uploadedAt,
          checkedAt: certificate.checkedAt,
          checkedBy: certificate.checkedBy,
        }
      : null,
    events: events.map((event) => ({
      id: event.id,
      at: event.createdAt,
      kind: event.kind,
      detail: event.detail,
    })),
    emails,
  };
}

export type OrderDossier = Awaited<ReturnType<typeof orderDossier>>;

/**
 * How an order paid against a proforma stands (issue 68): its number and terms, what is due and what was received,
 * each receipt (late ones waiting for the operator's decision, returned ones with their reference). Null for an
 * order paid at the checkout.
 */
async function proformaPaymentOf(db: DbOrTx, order: StoredOrder) {
  const [row] = await db
    .select({ terms: proformaTerms, number: proformaInvoices.number, issuedAt: proformaInvoices.issuedAt })
    .from(proformaTerms)
    .innerJoin(proformaInvoices, eq(proformaInvoices.orderId, proformaTerms.orderId))
    .where(eq(proformaTerms.orderId, order.id));
  if (!row) return null;
  const receipts = await db
    .select()
    .from(orderReceipts)
    .where(eq(orderReceipts.orderId, order.id))
    .orderBy(asc(orderReceipts.recordedAt));
  const live = receipts.filter((receipt) => receipt.returnedAt === null);
  return {
    number: row.number,
    issuedAt: row.issuedAt,
    validUntil: row.terms.validUntil,
    expiredAt: row.terms.expiredAt,
    reminderSentAt: row.terms.reminderSentAt,
    paymentLinkId: row.terms.paymentLinkId,
    paymentLinkUrl: row.terms.paymentLinkUrl,
    amountDue: order.amount - order.tdsAmount,
    received: live.reduce((sum, receipt) => sum + receipt.amount, 0),
    /** Late money not yet settled or returned: the operator decides. */
    lateToDecide: live.some((receipt) => receipt.late),
    receipts: receipts.map((receipt) => ({
      id: receipt.id,
      method: receipt.method,
      amount: receipt.amount,
      reference: receipt.reference,
      receivedOn: receipt.receivedOn,
      recordedAt: receipt.recordedAt,
      recordedBy: receipt.recordedBy,
      late: receipt.late,
      returnedAt: receipt.returnedAt,
      returnReference: receipt.returnReference,
    })),
  };
}
