import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { BILLING_COUNTRY_INDIA } from '../../../shared/billing';
import type { OrderDetail, OrderProforma, OrderTdsCertificate } from '../../../shared/order-detail';
import { taxDocumentPath } from '../../../shared/order-history';
import { ORDER_EVENT_LABELS, type OrderEventKind } from '../../../shared/orders';
import { proformaPath } from '../../../shared/proforma';
import { periodText } from '../../../shared/update-periods';
import { toolEditions, tools } from '../../db/schema/catalogue';
import { creditNotes, invoices, proformaInvoices } from '../../db/schema/invoices';
import { licenseActivations, licenses } from '../../db/schema/licenses';
import {
  orderEvents,
  orderReceipts,
  orders,
  proformaTerms,
  purchases,
  tdsCertificates,
} from '../../db/schema/orders';
import { indiaDate } from '../../invoices/numbering';
import { buyerPriceSums, priceOrder } from '../../invoices/pricing';
import type { AppContext } from '../../kernel/context';
import { toolLabel } from '../../licenses/delivery-email';
import { billingCorrectionDeadline } from '../billing-correction';
import { refundRequestsOfOrder } from '../refund-requests';
import { FREE_ORDER_PREFIX } from '../settle';

type OrderRow = typeof orders.$inferSelect;

/** How long the order page waits for Razorpay to say how a payment was made before showing it without. */
const METHOD_TIMEOUT_MS = 2_000;

/**
 * One order as its buyer sees it: the lines and totals (priced again by the one pricing function, as the invoice
 * was), the payment, the history, the tax documents and the license with its machines. Only the order's owner gets
 * it: for anyone else it does not exist (undefined).
 */
export async function ownOrderDetail(
  ctx: AppContext,
  input: { userId: string; orderId: string },
): Promise<OrderDetail | undefined> {
  const [row] = await ctx.db
    .select({ order: orders, tool: tools })
    .from(orders)
    .innerJoin(tools, eq(tools.id, orders.toolId))
    .where(and(eq(orders.id, input.orderId), eq(orders.userId, input.userId)));
  if (!row) return undefined;
  const { order, tool } = row;

  const orderListPrice = order.listPrice ?? order.amount;
  const unitPrice = orderListPrice / order.seats;
  const price = priceOrder({
    unitPrice,
    seats: order.seats,
    discount: orderListPrice - order.amount,
    currency: order.currency,
    billing: order.billing,
    firm: ctx.config.firm,
    tds: order.tdsAmount > 0,
  });

  const [description, events, invoiceRows, noteRows, license, requests, proforma, tdsCertificate] =
    await Promise.all([
      lineDescription(ctx, order, toolLabel(tool.name, tool.device)),
      ctx.db
        .select({ kind: orderEvents.kind, detail: orderEvents.detail, createdAt: orderEvents.createdAt })
        .from(orderEvents)
        .where(eq(orderEvents.orderId, order.id))
        .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
      ctx.db
        .select({
          id: invoices.id,
          number: invoices.number,
          issuedAt: invoices.issuedAt,
          cancelledBy: creditNotes.number,
        })
        .from(invoices)
        .leftJoin(creditNotes, eq(creditNotes.id, invoices.cancelledByCreditNoteId))
        .where(eq(invoices.orderId, order.id)),
      ctx.db
        .select({
          id: creditNotes.id,
          number: creditNotes.number,
          issuedAt: creditNotes.issuedAt,
          credits: invoices.number,
        })
        .from(creditNotes)
        .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
        .where(eq(creditNotes.orderId, order.id)),
      licenseOf(ctx, order.id),
      refundRequestsOfOrder(ctx, order.id),
      proformaOf(ctx, order),
      tdsCertificateOf(ctx, order),
    ]);
  const documents = [
    ...invoiceRows.map((doc) => ({ kind: 'invoice' as const, credits: doc.number, ...doc })),
    ...noteRows.map((doc) => ({ kind: 'credit-note' as const, cancelledBy: null, ...doc })),
  ]
    // At one instant (a correction issues both at once) a credit note follows the invoice it credits.
    .sort(
      (a, b) =>
        a.issuedAt.getTime() - b.issuedAt.getTime() ||
        a.credits.localeCompare(b.credits) ||
        Number(a.kind === 'credit-note') - Number(b.kind === 'credit-note'),
    )
    .map((doc) => ({
      kind: doc.kind,
      number: doc.number,
      issuedAt: doc.issuedAt.toISOString(),
      // The current invoice at its plain address (the one My Tools and the emails give); the others by their id.
      url:
        doc.kind === 'invoice' && doc.cancelledBy === null
          ? taxDocumentPath(order.id, 'invoice')
          : taxDocumentPath(order.id, doc.kind, doc.id),
      cancelledBy: doc.cancelledBy,
    }));

  return {
    id: order.id,
    createdAt: order.createdAt.toISOString(),
    status: order.status,
    currency: order.currency,
    lines: [
      {
        description,
        quantity: price.seats,
        unitPrice,
        amount: price.listPrice,
      },
    ],
    ...buyerPriceSums(price),
    coupon: order.couponCode ? { code: order.couponCode } : null,
    billing: {
      address: order.billing.address ?? '',
      state: order.billing.state ?? '',
      country: order.billing.country ?? '',
      gstin: order.billing.gstin ?? '',
    },
    payment: {
      reference: order.razorpayPaymentId,
      orderReference: order.razorpayOrderId,
      method: await paymentMethod(ctx, order),
      paidAt: order.paidAt?.toISOString() ?? null,
    },
    history: events.map((event) => ({
      at: event.createdAt.toISOString(),
      label: historyLabel(event.kind, event.detail),
    })),
    documents,
    billingCorrectableUntil: correctableUntil(ctx, order, invoiceRows),
    license,
    refund: refundOf(events, invoiceRows, noteRows),
    refundRequests: requests,
    proforma,
    tdsCertificate,
  };
}

/** The proforma the order is paid against, how far its payment has come, and how to pay while it can be paid. */
async function proformaOf(ctx: AppContext, order: OrderRow): Promise<OrderProforma | null> {
  const [row] = await ctx.db
    .select({ terms: proformaTerms, number: proformaInvoices.number, issuedAt: proformaInvoices.issuedAt })
    .from(proformaTerms)
    .innerJoin(proformaInvoices, eq(proformaInvoices.orderId, proformaTerms.orderId))
    .where(eq(proformaTerms.orderId, order.id));
  if (!row) return null;
  const receipts = await ctx.db
    .select()
    .from(orderReceipts)
    .where(and(eq(orderReceipts.orderId, order.id), isNull(orderReceipts.returnedAt)))
    .orderBy(asc(orderReceipts.recordedAt));
  const state = order.status === 'created' ? 'awaiting' : order.status === 'cancelled' ? 'expired' : 'paid';
  const bank = ctx.config.firm.bank;
  return {
    number: row.number,
    issuedAt: row.issuedAt.toISOString(),
    validUntil: row.terms.validUntil.toISOString(),
    url: proformaPath(order.id),
    state,
    paymentLinkUrl: state === 'awaiting' ? row.terms.paymentLinkUrl : null,
    bank: state === 'awaiting' && bank ? { accountName: ctx.config.firm.legalName, ...bank } : null,
    received: receipts.reduce((sum, receipt) => sum + receipt.amount, 0),
    receipts: receipts.map((receipt) => ({
      method: receipt.method,
      amount: receipt.amount,
      reference: receipt.reference,
      receivedOn: receipt.receivedOn,
    })),
  };
}

/** The order's TDS and its Form 16A, when the buyer deducts TDS. */
async function tdsCertificateOf(ctx: AppContext, order: OrderRow): Promise<OrderTdsCertificate | null> {
  if (order.tdsAmount === 0) return null;
  const [certificate] = await ctx.db
    .select()
    .from(tdsCertificates)
    .where(eq(tdsCertificates.orderId, order.id));
  return {
    pan: order.buyerPan ?? '',
    certificate: certificate
      ? {
          fileName: certificate.fileName,
          uploadedAt: certificate.uploadedAt.toISOString(),
          checked: certificate.checkedAt !== null,
          url: `/api/orders/${order.id}/tds-certificate.pdf`,
        }
      : null,
    canUpload: (order.status === 'created' || order.status === 'paid') && !certificate?.checkedAt,
  };
}

/** The last day the buyer may still correct the billing details (from the first invoice), or null. */
function correctableUntil(
  ctx: Pick<AppContext, 'clock'>,
  order: { status: string; billing: { country?: string } },
  invoiceRows: Array<{ issuedAt: Date; cancelledBy: string | null }>,
): string | null {
  if (order.status !== 'paid' || (order.billing.country || BILLING_COUNTRY_INDIA) !== BILLING_COUNTRY_INDIA)
    return null;
  if (!invoiceRows.some((doc) => doc.cancelledBy === null)) return null;
  const first = Math.min(...invoiceRows.map((doc) => doc.issuedAt.getTime()));
  const deadline = billingCorrectionDeadline(new Date(first));
  return indiaDate(ctx.clock.now()) > deadline ? null : deadline;
}

/**
 * The refund's amount, as its history records it, and its credit note: the one that credits an invoice without
 * cancelling it (a billing correction's cancels the invoice it credits).
 */
function refundOf(
  events: Array<{ kind: string; detail: unknown }>,
  invoiceRows: Array<{ cancelledBy: string | null }>,
  noteRows: Array<{ number: string }>,
): OrderDetail['refund'] {
  const refunded = events.filter((event) => event.kind === 'refunded');
  if (refunded.length === 0) return null;
  const amount = refunded.reduce((sum, event) => {
    const detail = event.detail as { amount?: unknown } | null;
    return sum + (typeof detail?.amount === 'number' ? detail.amount : 0);
  }, 0);
  const cancelling = new Set(invoiceRows.map((row) => row.cancelledBy));
  const note = noteRows.find((row) => !cancelling.has(row.number));
  return { amount, creditNote: note?.number ?? null };
}

/** A history line; a billing correction names the documents it cancelled and issued. */
function historyLabel(kind: OrderEventKind, detail: unknown): string {
  const facts = (detail ?? {}) as Record<string, unknown>;
  if (kind === 'billing-corrected' && typeof facts.creditNote === 'string')
    return `Billing details corrected: credit note ${facts.creditNote} cancels invoice ${String(facts.cancelledInvoice)}; new invoice ${String(facts.invoice)}`;
  return ORDER_EVENT_LABELS[kind];
}

/**
 * What the order bought, as its line says it: the tool, with the edition bought (decision 056), the upgrade's two
 * editions, or the renewal's period of updates (decision 059); the tool alone for an order of a tool without them.
 */
async function lineDescription(
  ctx: AppContext,
  order: typeof orders.$inferSelect,
  label: string,
): Promise<string> {
  const terms = order.terms ?? {};
  if (order.kind === 'renewal' && terms.months) return `Updates for ${periodText(terms.months)}: ${label}`;
  const ids = [terms.editionId, terms.fromEditionId, terms.toEditionId].filter((id) => id !== undefined);
  if (ids.length === 0) return label;
  const rows = await ctx.db
    .select({ id: toolEditions.id, name: toolEditions.name })
    .from(toolEditions)
    .where(inArray(toolEditions.id, ids));
  const name = (id: string | undefined) => rows.find((row) => row.id === id)?.name;
  const [from, to, bought] = [name(terms.fromEditionId), name(terms.toEditionId), name(terms.editionId)];
  if (order.kind === 'upgrade' && from && to) return `${label} — Upgrade from ${from} to ${to}`;
  return bought ? `${label} — ${bought}` : label;
}

async function licenseOf(ctx: AppContext, orderId: string): Promise<OrderDetail['license']> {
  const [found] = await ctx.db
    .select({ id: licenses.id, status: licenses.status, edition: toolEditions.name })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .leftJoin(toolEditions, eq(toolEditions.id, licenses.editionId))
    // The buyer's own license; a team's members hold theirs under the same purchase (decision 051).
    .where(and(eq(purchases.orderId, orderId), isNull(licenses.teamLicenseId)));
  if (!found) return null;
  const devices = await ctx.db
    .select({
      name: licenseActivations.name,
      fingerprint: licenseActivations.fingerprint,
      activatedAt: licenseActivations.activatedAt,
      lastSeenAt: licenseActivations.lastSeenAt,
    })
    .from(licenseActivations)
    .where(and(eq(licenseActivations.licenseId, found.id), isNull(licenseActivations.deactivatedAt)))
    .orderBy(asc(licenseActivations.activatedAt));
  return {
    id: found.id,
    status: found.status,
    edition: found.edition,
    devices: devices.map((device) => ({
      name: device.name ?? `Machine ${device.fingerprint.slice(0, 8)}`,
      activatedAt: device.activatedAt.toISOString(),
      lastSeenAt: device.lastSeenAt.toISOString(),
    })),
  };
}

/** How the buyer paid, as Razorpay records it; a free order was paid with its coupon. Best effort, never an error. */
async function paymentMethod(
  ctx: AppContext,
  order: { razorpayOrderId: string; razorpayPaymentId: string | null },
): Promise<string | null> {
  if (order.razorpayOrderId.startsWith(FREE_ORDER_PREFIX)) return 'coupon';
  if (!order.razorpayPaymentId) return null;
  try {
    const payments = await Promise.race([
      ctx.gateway.fetchOrderPayments(order.razorpayOrderId),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('timeout')), METHOD_TIMEOUT_MS).unref(),
      ),
    ]);
    return payments.find((payment) => payment.id === order.razorpayPaymentId)?.method ?? null;
  } catch {
    return null;
  }
}
