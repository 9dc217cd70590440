import { and, asc, eq, isNull } from 'drizzle-orm';
import type { OrderDetail } from '../../shared/order-detail';
import { taxDocumentPath } from '../../shared/order-history';
import { ORDER_EVENT_LABELS } from '../../shared/orders';
import {
  creditNotes,
  invoices,
  licenseActivations,
  licenses,
  orderEvents,
  orders,
  purchases,
  tools,
} from '../db/schema';
import { priceOrder } from '../invoices/pricing';
import type { AppContext } from '../kernel/context';
import { FREE_ORDER_PREFIX } from '../payments/fulfil';
import { toolLabel } from '../shop/delivery-email';
import { refundRequestsOfOrder } from './refund-requests';

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

  const unitPrice = order.listPrice ?? order.amount;
  const price = priceOrder({
    unitPrice,
    discount: unitPrice - order.amount,
    currency: order.currency,
    billing: order.billing,
    firm: ctx.config.firm,
  });

  const [events, invoiceRows, noteRows, license, requests] = await Promise.all([
    ctx.db
      .select({ kind: orderEvents.kind, createdAt: orderEvents.createdAt })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
    ctx.db
      .select({ number: invoices.number, issuedAt: invoices.issuedAt })
      .from(invoices)
      .where(eq(invoices.orderId, order.id)),
    ctx.db
      .select({ number: creditNotes.number, issuedAt: creditNotes.issuedAt })
      .from(creditNotes)
      .where(eq(creditNotes.orderId, order.id)),
    licenseOf(ctx, order.id),
    refundRequestsOfOrder(ctx, order.id),
  ]);
  const documents = [
    ...invoiceRows.map((doc) => ({ kind: 'invoice' as const, ...doc })),
    ...noteRows.map((doc) => ({ kind: 'credit-note' as const, ...doc })),
  ]
    .sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime())
    .map((doc) => ({
      kind: doc.kind,
      number: doc.number,
      issuedAt: doc.issuedAt.toISOString(),
      url: taxDocumentPath(order.id, doc.kind),
    }));

  return {
    id: order.id,
    createdAt: order.createdAt.toISOString(),
    status: order.status,
    currency: order.currency,
    lines: [
      {
        description: toolLabel(tool.name, tool.device),
        quantity: price.seats,
        unitPrice,
        amount: price.listPrice,
      },
    ],
    listPrice: price.listPrice,
    coupon: order.couponCode ? { code: order.couponCode } : null,
    discount: price.discount,
    taxableValue: price.taxableValue,
    taxes: price.taxes.map((line) => ({ name: line.name, rate: line.ratePercent, amount: line.amount })),
    total: price.total,
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
      label: ORDER_EVENT_LABELS[event.kind],
    })),
    documents,
    license,
    refundRequests: requests,
  };
}

async function licenseOf(ctx: AppContext, orderId: string): Promise<OrderDetail['license']> {
  const [found] = await ctx.db
    .select({ id: licenses.id, status: licenses.status })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .where(eq(purchases.orderId, orderId));
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
    status: found.status,
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
