import { and, asc, eq, isNull } from 'drizzle-orm';
import { formatSubunits } from '../../shared/money';
import type { Tx } from '../db';
import { proformaInvoices } from '../db/schema/invoices';
import { orderReceipts, orders, proformaTerms, type RECEIPT_METHODS } from '../db/schema/orders';
import type { PaidAgainstProforma, TaxDocument } from '../invoices/document';
import { indiaDate } from '../invoices/numbering';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { type Actor, actorName, recordAudit } from '../operator/audit';
import { recordOrderEvent } from './events';
import {
  afterFulfilment,
  type FulfilOutcome,
  type FulfilSource,
  inFulfilmentTransaction,
  settleLockedOrder,
} from './settle';

/**
 * Money received for an order paid against a proforma (issue 68, docs/decisions/062): a payment link's payment,
 * reported by Razorpay's `payment_link.paid` webhook (or found by the reconciler), or a bank transfer the operator
 * records. Each is one `order_receipts` row (one reference once), written with the order row locked; the order
 * settles through the one settle path (`settleLockedOrder`: the kind's fulfilment, the invoice, the delivery) in the
 * same transaction, the moment what was received covers what is due. Money that arrives for an order that can no
 * longer be settled that way (its proforma expired, or it is paid already) is kept as a late receipt for the
 * operator, who settles the order with it or returns it.
 */

type ReceiptMethod = (typeof RECEIPT_METHODS)[number];
type OrderRow = typeof orders.$inferSelect;

export type ReceiptInput = {
  orderId: string;
  method: ReceiptMethod;
  /** Subunits of the order's currency. */
  amount: number;
  /** A payment link's payment id (pay_…), or a transfer's UTR. */
  reference: string;
  /** The day the money arrived, India time (YYYY-MM-DD). */
  receivedOn: string;
  recordedBy: string;
  source: FulfilSource;
  /** The Razorpay order a link's payment opened: the order takes it at settlement, so a refund finds the payment. */
  razorpayOrderId?: string;
};

export type ReceiptOutcome = { orderId: string; received: number; due: number } & (
  | { result: 'duplicate' | 'received' | 'late' }
  | { result: 'settled'; fulfilment: FulfilOutcome; paymentId: string | null }
);

const dueOf = (order: Pick<OrderRow, 'amount' | 'tdsAmount'>) => order.amount - order.tdsAmount;

async function lockOrder(tx: Tx, orderId: string): Promise<OrderRow> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) throw new DomainError('not_found', `No order with id ${orderId}.`);
  return order;
}

/** The order's receipts that count towards it: every one not returned to the buyer. */
async function liveReceipts(tx: Tx, orderId: string) {
  return tx
    .select()
    .from(orderReceipts)
    .where(and(eq(orderReceipts.orderId, orderId), isNull(orderReceipts.returnedAt)))
    .orderBy(asc(orderReceipts.recordedAt), asc(orderReceipts.reference));
}

/**
 * Settles a locked order paid against its proforma with the receipts that cover it: its tax invoice names the
 * proforma, the TDS and the money received, and its kind's line (the proforma's, from the same `describe`); a payment link's payment is the
 * order's payment (a refund goes back through Razorpay), a transfer leaves none.
 */
async function settleAgainstProforma(
  ctx: AppContext,
  tx: Tx,
  order: OrderRow,
  receipts: Array<typeof orderReceipts.$inferSelect>,
  source: FulfilSource,
): Promise<{ fulfilment: FulfilOutcome; paymentId: string | null }> {
  const [proforma] = await tx
    .select({ number: proformaInvoices.number, document: proformaInvoices.document })
    .from(proformaInvoices)
    .where(eq(proformaInvoices.orderId, order.id));
  if (!proforma) throw new Error(`order ${order.id} has receipts but no proforma`);
  const document = proforma.document as TaxDocument;
  const paidAgainst: PaidAgainstProforma = {
    proforma: { number: proforma.number, date: document.date },
    tds: document.proforma?.tds ?? null,
    receipts: receipts.map((receipt) => ({
      method: receipt.method,
      reference: receipt.reference,
      amount: receipt.amount,
      date: receipt.receivedOn,
    })),
  };
  const linkPayment = receipts.find((receipt) => receipt.method === 'payment-link');
  const paymentId = linkPayment?.reference ?? null;
  const fulfilment = await settleLockedOrder(
    ctx,
    tx,
    order,
    {
      razorpayOrderId: linkPayment?.razorpayOrderId ?? order.razorpayOrderId,
      razorpayPaymentId: paymentId,
      source,
      paidAgainst,
    },
    ctx.clock.now(),
  );
  return { fulfilment, paymentId };
}

/**
 * Records money received for an order, inside the caller's transaction (one that retries on a unique violation:
 * `inFulfilmentTransaction`), and settles the order when it is covered. A reference recorded before is a
 * duplicate and changes nothing: a replayed webhook, the reconciler after the webhook, a transfer typed twice.
 */
export async function recordReceipt(ctx: AppContext, tx: Tx, input: ReceiptInput): Promise<ReceiptOutcome> {
  const order = await lockOrder(tx, input.orderId);
  const due = dueOf(order);
  const now = ctx.clock.now();
  // Anything but an open order can no longer be settled by this money: the operator decides what becomes of it.
  const late = order.status !== 'created';
  const [inserted] = await tx
    .insert(orderReceipts)
    .values({
      orderId: order.id,
      method: input.method,
      amount: input.amount,
      currency: order.currency,
      reference: input.reference,
      razorpayOrderId: input.razorpayOrderId ?? null,
      receivedOn: input.receivedOn,
      recordedAt: now,
      recordedBy: input.recordedBy,
      late,
    })
    .onConflictDoNothing()
    .returning({ id: orderReceipts.id });
  const receipts = await liveReceipts(tx, order.id);
  const received = receipts.reduce((sum, receipt) => sum + receipt.amount, 0);
  if (!inserted) return { result: 'duplicate', orderId: order.id, received, due };

  const fact = {
    source: input.method,
    amount: input.amount,
    reference: input.reference,
    receivedOn: input.receivedOn,
  };
  if (late) {
    await recordOrderEvent(
      tx,
      order.id,
      'late-payment',
      { ...fact, reason: `order is ${order.status}` },
      now,
    );
    return { result: 'late', orderId: order.id, received, due };
  }
  await recordOrderEvent(
    tx,
    order.id,
    'payment-received',
    { ...fact, received, amountDue: due, ...(received > due ? { overpaid: received - due } : {}) },
    now,
  );
  if (received < due) return { result: 'received', orderId: order.id, received, due };
  const settled = await settleAgainstProforma(ctx, tx, order, receipts, input.source);
  return { result: 'settled', orderId: order.id, received, due, ...settled };
}

/** What follows a committed settlement: the caches and the metric, and the payment link closed for good. */
async function afterReceipt(ctx: AppContext, outcome: ReceiptOutcome): Promise<void> {
  if (outcome.result !== 'settled') return;
  await afterFulfilment(ctx, outcome.fulfilment, outcome.paymentId);
  await cancelPaymentLinkOf(ctx, outcome.orderId);
}

/**
 * Cancels the order's payment link at Razorpay once it must not take money any more (paid another way, expired).
 * Best effort: a link Razorpay already closed, or a gateway that does not answer, leaves it to expire on its own
 * date; money it still takes arrives as a late receipt.
 */
export async function cancelPaymentLinkOf(ctx: AppContext, orderId: string): Promise<void> {
  const [terms] = await ctx.db
    .select({ linkId: proformaTerms.paymentLinkId })
    .from(proformaTerms)
    .where(eq(proformaTerms.orderId, orderId));
  if (!terms?.linkId) return;
  try {
    const link = await ctx.gateway.fetchPaymentLink(terms.linkId);
    if (link.status === 'created') await ctx.gateway.cancelPaymentLink(terms.linkId);
  } catch {
    // Left to expire on its own date.
  }
}

/**
 * A payment link's payment (`payment_link.paid`, or the reconciler asking about the link), in the webhook's
 * transaction. An unknown link is not ours to act on.
 */
export async function recordLinkPayment(
  ctx: AppContext,
  tx: Tx,
  input: {
    paymentLinkId: string;
    paymentId: string;
    amount: number;
    razorpayOrderId: string | null;
    paidAt: Date;
    source: 'webhook' | 'reconciler';
  },
): Promise<ReceiptOutcome | { result: 'unknown-link' }> {
  const [terms] = await tx
    .select({ orderId: proformaTerms.orderId })
    .from(proformaTerms)
    .where(eq(proformaTerms.paymentLinkId, input.paymentLinkId));
  if (!terms) return { result: 'unknown-link' };
  return recordReceipt(ctx, tx, {
    orderId: terms.orderId,
    method: 'payment-link',
    amount: input.amount,
    reference: input.paymentId,
    receivedOn: indiaDate(input.paidAt),
    recordedBy: 'razorpay',
    source: input.source,
    razorpayOrderId: input.razorpayOrderId ?? undefined,
  });
}

/** After the webhook's transaction committed: as after any receipt. */
export const afterLinkPayment = (ctx: AppContext, outcome: ReceiptOutcome | { result: 'unknown-link' }) =>
  outcome.result === 'unknown-link' ? Promise.resolve() : afterReceipt(ctx, outcome);

/** A UTR: NEFT's 16 characters, RTGS's 22, IMPS's 12 digits; letters and digits only. */
const UTR_PATTERN = /^[A-Z0-9]{6,30}$/;

export type TransferInput = {
  orderId: string;
  amount: number;
  utr: string;
  /** The transfer's value date, India time (YYYY-MM-DD). */
  date: string;
  actor: Actor;
  source: 'admin' | 'dashboard';
};

/** Why a transfer cannot be recorded as given, or null: each part named as the operator typed it. */
function transferProblem(input: TransferInput, today: string): string | null {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
    return 'The amount must be more than zero, in rupees with at most two decimals.';
  if (!UTR_PATTERN.test(input.utr))
    return 'The UTR is the bank’s reference of the transfer: 6 to 30 letters and digits.';
  const day = /^\d{4}-\d{2}-\d{2}$/.test(input.date) ? new Date(`${input.date}T00:00:00Z`) : null;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== input.date)
    return `The date must be a day of the calendar as YYYY-MM-DD, got "${input.date}".`;
  if (input.date > today) return `The date ${input.date} is after today (${today}, India time).`;
  return null;
}

/**
 * A bank transfer the operator saw arrive (`orders record-transfer`, the dashboard's order page), audited in the
 * transaction that records it: the order settles when its receipts cover what is due. Refused, with nothing
 * changed: an order not paid against a proforma, a bad amount, UTR or date, a UTR recorded before.
 */
export async function recordTransfer(ctx: AppContext, input: TransferInput): Promise<ReceiptOutcome> {
  const utr = input.utr.trim().toUpperCase();
  const problem = transferProblem({ ...input, utr }, indiaDate(ctx.clock.now()));
  if (problem) throw new DomainError('invalid', problem);
  const outcome = await inFulfilmentTransaction(ctx, async (tx) => {
    const [terms] = await tx
      .select({ orderId: proformaTerms.orderId })
      .from(proformaTerms)
      .where(eq(proformaTerms.orderId, input.orderId));
    if (!terms)
      throw new DomainError(
        'refused',
        `Order ${input.orderId} is not paid against a proforma invoice: a transfer cannot be recorded against it.`,
      );
    const recorded = await recordReceipt(ctx, tx, {
      orderId: input.orderId,
      method: 'bank-transfer',
      amount: input.amount,
      reference: utr,
      receivedOn: input.date,
      recordedBy: actorName(input.actor),
      source: input.source,
    });
    if (recorded.result === 'duplicate')
      throw new DomainError('conflict', `The transfer ${utr} is recorded already; nothing was changed.`);
    await recordAudit(tx, input.actor, {
      action: 'order.record-transfer',
      target: `order:${input.orderId}`,
      after: {
        amount: input.amount,
        utr,
        date: input.date,
        received: recorded.received,
        amountDue: recorded.due,
        result: recorded.result,
      },
    });
    return recorded;
  });
  await afterReceipt(ctx, outcome);
  return outcome;
}

/** The late receipts of an order not yet returned, and what they add up to. */
async function lateReceipts(tx: Tx, orderId: string) {
  const rows = (await liveReceipts(tx, orderId)).filter((receipt) => receipt.late);
  return { rows, total: rows.reduce((sum, receipt) => sum + receipt.amount, 0) };
}

/**
 * The operator's first answer to money that came after the proforma expired: settle the order with it after all
 * (the buyer paid the price the proforma held; its coupon use is counted again). Only an order cancelled at its
 * proforma's expiry whose receipts cover what is due; audited with the settlement.
 */
export async function settleLatePayment(
  ctx: AppContext,
  input: { orderId: string; actor: Actor; source: 'admin' | 'dashboard' },
): Promise<ReceiptOutcome> {
  const outcome = await inFulfilmentTransaction(ctx, async (tx): Promise<ReceiptOutcome> => {
    const order = await lockOrder(tx, input.orderId);
    const due = dueOf(order);
    const late = await lateReceipts(tx, order.id);
    if (order.status !== 'cancelled' || late.rows.length === 0)
      throw new DomainError(
        'refused',
        `Order ${order.id} is ${order.status} and has no late payment waiting: there is nothing to settle.`,
      );
    const receipts = await liveReceipts(tx, order.id);
    const received = receipts.reduce((sum, receipt) => sum + receipt.amount, 0);
    if (received < due)
      throw new DomainError(
        'refused',
        `Received ${formatSubunits(received, order.currency)} of ${formatSubunits(due, order.currency)} due: record the rest first, or return it.`,
      );
    await tx.update(orderReceipts).set({ late: false }).where(eq(orderReceipts.orderId, order.id));
    const settled = await settleAgainstProforma(ctx, tx, order, receipts, input.source);
    await recordAudit(tx, input.actor, {
      action: 'order.settle-late-payment',
      target: `order:${order.id}`,
      before: { status: 'cancelled' },
      after: { status: settled.fulfilment.result === 'fulfilled' ? 'paid' : order.status, received },
    });
    return { result: 'settled', orderId: order.id, received, due, ...settled };
  });
  await afterReceipt(ctx, outcome);
  return outcome;
}

/**
 * The operator's other answer to late money: give it back. A payment link's payment is refunded through Razorpay
 * (once, whatever retries: one idempotency key per receipt); a transfer is returned by the operator's own bank
 * transfer, whose reference is recorded. Audited; the order stays cancelled.
 */
export async function returnLatePayment(
  ctx: AppContext,
  input: { orderId: string; returnReference?: string; actor: Actor },
): Promise<{ orderId: string; returned: number; refunds: string[] }> {
  const pending = await ctx.db.transaction((tx) => lateReceipts(tx, input.orderId));
  if (pending.rows.length === 0)
    throw new DomainError('refused', `Order ${input.orderId} has no late payment to return.`);
  const transfers = pending.rows.filter((receipt) => receipt.method === 'bank-transfer');
  const reference = input.returnReference?.trim().toUpperCase() ?? '';
  if (transfers.length > 0 && !UTR_PATTERN.test(reference))
    throw new DomainError(
      'invalid',
      'Give the UTR of the transfer that returned the money (6 to 30 letters and digits).',
    );
  const refunds: string[] = [];
  for (const receipt of pending.rows.filter((row) => row.method === 'payment-link')) {
    const refund = await ctx.gateway
      .refundPayment(receipt.reference, {
        notes: { orderId: input.orderId, reason: 'Paid after the proforma invoice expired' },
        idempotencyKey: `late:${receipt.id}`,
      })
      .catch((error: unknown) => {
        throw new DomainError(
          'gateway_failed',
          `Razorpay did not refund ${receipt.reference}: ${(error as Error).message}. Nothing was changed.`,
        );
      });
    refunds.push(refund.id);
  }
  return ctx.db.transaction(async (tx) => {
    await lockOrder(tx, input.orderId);
    const now = ctx.clock.now();
    const returned = await tx
      .update(orderReceipts)
      .set({ returnedAt: now, returnReference: reference || null })
      .where(
        and(
          eq(orderReceipts.orderId, input.orderId),
          eq(orderReceipts.late, true),
          isNull(orderReceipts.returnedAt),
        ),
      )
      .returning({ amount: orderReceipts.amount });
    const amount = returned.reduce((sum, receipt) => sum + receipt.amount, 0);
    await recordOrderEvent(
      tx,
      input.orderId,
      'late-payment-returned',
      { amount, reference: [reference, ...refunds].filter(Boolean).join(', ') },
      now,
    );
    await recordAudit(tx, input.actor, {
      action: 'order.return-late-payment',
      target: `order:${input.orderId}`,
      after: { amount, reference: reference || null, refunds },
    });
    return { orderId: input.orderId, returned: amount, refunds };
  });
}
