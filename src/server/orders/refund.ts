import { and, eq } from 'drizzle-orm';
import type { Currency } from '../../shared/constants';
import { forgetOwnedTools } from '../catalogue/catalogue';
import type { Tx } from '../db';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { orderEvents, orders } from '../db/schema/orders';
import { issueCreditNote } from '../invoices/issue';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { forgetLicenses } from '../licenses/memory';
import { enqueueMail } from '../mail/outbox';
import { type Actor, recordAudit } from '../operator/audit';
import { EMULATOR_PREFIX, GatewayError } from '../payments/gateway';
import { queueRefundEvent } from '../webhooks/events';
import { recordOrderEvent } from './events';
import { kindOf } from './kinds';
import type { SeatsBeyondPaid } from './kinds/kind';
import { renderRefundEmail } from './refund-email';

/** Who asked for the refund; recorded on the order's history. */
export type RefundSource = 'admin' | 'duplicate-payment' | 'dashboard' | 'razorpay';

export type RefundOrderInput = {
  orderId: string;
  source: RefundSource;
  /** Shown to the customer in the refund notice and kept on the order's history. */
  reason: string | null;
  /**
   * A refund Razorpay already made (its refund webhook, or a refund from the Razorpay Dashboard): it is only
   * recorded, and the gateway is not asked.
   */
  madeByRazorpay?: { refundId: string | null; amount: number };
  /** The operator who asked (dashboard or command line): the audit entry commits with the refund or not at all. */
  actor?: Actor;
};

export type RefundResult = {
  orderId: string;
  razorpayPaymentId: string;
  refundId: string | null;
  amount: number;
  currency: Currency;
  /** Razorpay already showed the payment refunded (a refund from the Dashboard, or an earlier run). */
  refundedEarlier: boolean;
  purchaseId: string | null;
  downloadLinksRevoked: number;
  outboxId: number;
  /** Seats taken back by the refund of "Add seats" that people still hold: the operator may free the newest. */
  seatsBeyondPaid: SeatsBeyondPaid | null;
};

type OrderRow = typeof orders.$inferSelect;

/** What Razorpay did (or had already done) about the order's payment. */
export type GatewayRefund = { refundId: string | null; amount: number; refundedEarlier: boolean };

function gatewayProblem(ctx: AppContext, error: GatewayError): DomainError {
  const emulator =
    ctx.config.razorpay.emulated && !ctx.config.razorpay.apiUrl && error.status === undefined
      ? ` The Razorpay emulator lives inside the running server (${ctx.config.publicUrl}${EMULATOR_PREFIX}); start it, with DATABASE_URL set so both can use the database.`
      : '';
  return new DomainError(
    'gateway_failed',
    `Razorpay did not refund: ${error.message}. Nothing was changed.${emulator}`,
  );
}

/** The answer to a refund of an order some refund has already recorded, whichever of them started first. */
class AlreadyRefunded extends DomainError {
  constructor(orderId: string) {
    super('refused', `Order ${orderId} is already refunded.`);
  }
}

/** The one state check: only a paid order with its payment id can be refunded. */
async function refundableOrder(
  ctx: AppContext,
  orderId: string,
): Promise<OrderRow & { razorpayPaymentId: string }> {
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new DomainError('not_found', `No order with id ${orderId}.`);
  if (order.status === 'refunded') throw new AlreadyRefunded(orderId);
  if (order.status !== 'paid' || !order.razorpayPaymentId) {
    throw new DomainError(
      'refused',
      `Order ${orderId} is ${order.status}, not paid: there is no payment to refund.`,
    );
  }
  return { ...order, razorpayPaymentId: order.razorpayPaymentId };
}

/**
 * Asks Razorpay to refund the order's payment in full, unless it already shows the payment refunded. Nothing
 * changes here when Razorpay refuses.
 */
async function refundAtGateway(
  ctx: AppContext,
  order: OrderRow & { razorpayPaymentId: string },
  reason: string | null,
): Promise<GatewayRefund> {
  const paymentId = order.razorpayPaymentId;
  try {
    const payments = await ctx.gateway.fetchOrderPayments(order.razorpayOrderId);
    const payment = payments.find((candidate) => candidate.id === paymentId);
    if (!payment) {
      throw new DomainError(
        'refused',
        `Razorpay does not list payment ${paymentId} on order ${order.razorpayOrderId}; check it in the Razorpay Dashboard. Nothing was changed.`,
      );
    }
    if (payment.status === 'refunded') return { refundId: null, amount: order.amount, refundedEarlier: true };
    if (payment.status !== 'captured') {
      throw new DomainError(
        'refused',
        `Razorpay shows payment ${paymentId} as ${payment.status}, not captured: it cannot be refunded. Nothing was changed.`,
      );
    }
    const refund = await ctx.gateway.refundPayment(paymentId, {
      notes: { orderId: order.id, reason: (reason ?? 'Refunded by the shop').slice(0, 256) },
      // One full refund per order: a retry after a timeout gets Razorpay's first refund back, never a second.
      idempotencyKey: `refund:${order.id}`,
    });
    return { refundId: refund.id, amount: refund.amount, refundedEarlier: false };
  } catch (error) {
    if (error instanceof GatewayError) throw gatewayProblem(ctx, error);
    throw error;
  }
}

/** Whether the order was fulfilled: its 'paid' event is written with what it paid for (payments/fulfil.ts). */
async function wasSettled(tx: Tx, orderId: string): Promise<boolean> {
  const [paid] = await tx
    .select({ id: orderEvents.id })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, 'paid')))
    .limit(1);
  return paid !== undefined;
}

/**
 * The database side of a refund, inside the caller's transaction: lock the order and check it is still paid, mark
 * it refunded, undo what its kind gave (orders/kinds/: a new license's purchase ends and its license is revoked;
 * added seats are taken back), record the one 'refunded' event and queue the customer's refund notice. What a
 * refund undoes for every kind belongs here; what it undoes for one kind, in that kind's `undo`.
 */
export async function recordRefund(
  ctx: AppContext,
  tx: Tx,
  input: {
    order: OrderRow & { razorpayPaymentId: string };
    source: RefundSource;
    reason: string | null;
    refund: GatewayRefund;
  },
): Promise<RefundResult> {
  const { order, source, reason, refund } = input;
  const paymentId = order.razorpayPaymentId;
  const now = ctx.clock.now();
  const [locked] = await tx
    .select({ status: orders.status })
    .from(orders)
    .where(eq(orders.id, order.id))
    .for('update');
  // Another refund of this order (the CLI, the Dashboard's webhook) committed first: it issued the credit note.
  if (locked?.status === 'refunded') throw new AlreadyRefunded(order.id);
  if (locked?.status !== 'paid') {
    throw new DomainError(
      'refused',
      `Order ${order.id} changed to ${locked?.status} meanwhile; see "orders show".`,
    );
  }
  await tx.update(orders).set({ status: 'refunded', updatedAt: now }).where(eq(orders.id, order.id));
  const undone = await kindOf(order).undo(ctx, tx, order, await wasSettled(tx, order.id), now);
  await recordOrderEvent(
    tx,
    order.id,
    'refunded',
    {
      source,
      paymentId,
      refundId: refund.refundId,
      amount: refund.amount,
      currency: order.currency,
      reason,
      refundedEarlier: refund.refundedEarlier,
      purchaseId: undone.purchaseId,
      downloadLinksRevoked: undone.downloadLinksRevoked,
    },
    now,
  );
  await queueRefundEvent(
    tx,
    { orderId: order.id, refundId: refund.refundId, amount: refund.amount, reason },
    now,
  );
  const [customer] = await tx
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, order.userId));
  const [tool] = await tx
    .select({ name: tools.name, device: tools.device })
    .from(tools)
    .where(eq(tools.id, order.toolId));
  if (!customer || !tool) throw new Error(`order ${order.id} refers to a missing user or tool`);
  const creditNote = await issueCreditNote(ctx, tx, { orderId: order.id, amount: refund.amount, reason });
  // Every refund tells the customer, whoever started it; a duplicate payment's notice says the tool stays theirs.
  const outboxId = await enqueueMail(
    ctx,
    tx,
    {
      to: customer.email,
      ...renderRefundEmail({
        customerName: customer.name,
        toolName: tool.name,
        device: tool.device,
        amount: refund.amount,
        currency: order.currency,
        razorpayPaymentId: paymentId,
        refundId: refund.refundId,
        reason,
        endsPurchase: Boolean(undone.purchaseId),
        creditNote: creditNote
          ? { number: creditNote.number, invoiceNumber: creditNote.document.original?.number ?? '' }
          : undefined,
      }),
      kind: 'refund-notice',
      ref: `order:${order.id}`,
      attachments: creditNote ? [{ kind: 'credit-note', id: creditNote.id }] : [],
    },
    now,
  );
  return {
    orderId: order.id,
    razorpayPaymentId: paymentId,
    refundId: refund.refundId,
    amount: refund.amount,
    currency: order.currency,
    refundedEarlier: refund.refundedEarlier,
    purchaseId: undone.purchaseId,
    downloadLinksRevoked: undone.downloadLinksRevoked,
    outboxId,
    seatsBeyondPaid: undone.seatsBeyondPaid ?? null,
  };
}

/**
 * THE refund of an order, in full, for every caller (the operator's command line, a duplicate payment, and later
 * the dashboard and Razorpay's refund webhook). Razorpay is asked first, unless it already made the refund: if it
 * refuses, nothing changes here. Then one transaction records it (`recordRefund`). A payment Razorpay already
 * shows as refunded is only recorded, so a run interrupted after the gateway's answer can simply be repeated.
 */
export async function refundOrder(ctx: AppContext, request: RefundOrderInput): Promise<RefundResult> {
  const order = await refundableOrder(ctx, request.orderId);
  const refund: GatewayRefund = request.madeByRazorpay
    ? { ...request.madeByRazorpay, refundedEarlier: true }
    : await refundAtGateway(ctx, order, request.reason);
  try {
    const result = await ctx.db.transaction(async (tx) => {
      const recorded = await recordRefund(ctx, tx, {
        order,
        source: request.source,
        reason: request.reason,
        refund,
      });
      if (request.actor) {
        await recordAudit(tx, request.actor, {
          action: 'order.refund',
          target: `order:${recorded.orderId}`,
          before: { status: 'paid' },
          after: {
            status: 'refunded',
            amount: recorded.amount,
            currency: recorded.currency,
            reason: request.reason,
          },
        });
      }
      return recorded;
    });
    forgetOwnedTools(ctx, order.userId);
    forgetLicenses(ctx);
    ctx.metrics.orders.inc({ event: 'refunded', currency: result.currency });
    return result;
  } catch (error) {
    // Lost a race with another refund of the same order: Razorpay's idempotency key made it the same refund.
    if (error instanceof AlreadyRefunded) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new DomainError(
      'not_recorded',
      `Razorpay ${refund.refundedEarlier ? 'shows' : 'has made'} the refund${refund.refundId ? ` ${refund.refundId}` : ''} for ${order.razorpayPaymentId}, but recording it failed: ${message} Run the same command again to record it.`,
    );
  }
}

export type RazorpayRefundOutcome =
  | { result: 'recorded'; orderId: string; userId: string; currency: string }
  | { result: 'already-refunded' | 'unknown-payment' | 'not-paid' | 'partial' };

/**
 * A refund Razorpay reports by webhook (`refund.created`, `refund.processed`): one made in the Dashboard, or the
 * echo of one made here. A full refund of a paid order goes through `recordRefund` in the webhook's transaction,
 * exactly like any other refund; an order already refunded (the echo, or the second of the two events) is left
 * alone, and a partial refund does not end the purchase.
 */
export async function recordRazorpayRefund(
  ctx: AppContext,
  tx: Tx,
  input: { paymentId: string; refundId: string; amount: number; amountRefunded?: number },
): Promise<RazorpayRefundOutcome> {
  // Locked, so a refund from the command line racing this webhook waits and then finds the order refunded.
  const [order] = await tx
    .select()
    .from(orders)
    .where(eq(orders.razorpayPaymentId, input.paymentId))
    .for('update');
  if (!order?.razorpayPaymentId) return { result: 'unknown-payment' };
  if (order.status === 'refunded') return { result: 'already-refunded' };
  if (order.status !== 'paid') return { result: 'not-paid' };
  if (Math.max(input.amount, input.amountRefunded ?? 0) < order.amount) return { result: 'partial' };
  await recordRefund(ctx, tx, {
    order: { ...order, razorpayPaymentId: order.razorpayPaymentId },
    source: 'razorpay',
    reason: 'Refunded through Razorpay',
    refund: { refundId: input.refundId, amount: input.amount, refundedEarlier: true },
  });
  return { result: 'recorded', orderId: order.id, userId: order.userId, currency: order.currency };
}
