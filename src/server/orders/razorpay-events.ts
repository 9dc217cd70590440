import { forgetOwnedTools } from '../catalogue/catalogue';
import type { AppContext } from '../kernel/context';
import { forgetLicenses } from '../licenses/memory';
import { type RazorpayEvent, recordRazorpayEvent } from '../payments/razorpay-event';
import { applyDispute, type DisputeOutcome, type DisputeResult } from './disputes';
import { afterLinkPayment, recordLinkPayment } from './receipts';
import { type RazorpayRefundOutcome, recordRazorpayRefund } from './refund';
import {
  afterFulfilment,
  applyPayment,
  type FulfilOutcome,
  inFulfilmentTransaction,
  recordPaymentFailure,
} from './settle';

const DISPUTE_EVENTS: Record<string, DisputeOutcome> = {
  'payment.dispute.created': 'created',
  'payment.dispute.won': 'won',
  'payment.dispute.lost': 'lost',
};

type Handled =
  | { kind: 'duplicate' }
  | { kind: 'ignored'; reason: string }
  | { kind: 'payment-failed'; recorded: boolean }
  | { kind: 'payment'; paymentId: string; outcome: FulfilOutcome }
  | { kind: 'dispute'; result: DisputeResult }
  | { kind: 'refund'; outcome: RazorpayRefundOutcome }
  | { kind: 'payment-link'; outcome: Awaited<ReturnType<typeof recordLinkPayment>> };

/** What became of an event: `duplicate`, `ignored`, `payment-failed`, `dispute`, `refund`, or the payment's result. */
export type RazorpayEventResult = { result: string; handled: Handled };

/**
 * One Razorpay event applied (docs/decisions/053-house-layout.md, "Schemas on routes"): its id is recorded in the
 * same transaction as its effect, so a redelivery is a no-op and an event whose handling failed is not marked as
 * handled; then the caches it made stale are dropped and a fulfilment's mail and hooks run. The webhook route
 * checks the signature and parses the body before it calls this; tests and the operator's tools call it directly.
 */
export async function applyRazorpayEvent(
  ctx: AppContext,
  event: RazorpayEvent,
): Promise<RazorpayEventResult> {
  const handled = await inFulfilmentTransaction(ctx, async (tx): Promise<Handled> => {
    if (!(await recordRazorpayEvent(tx, event, ctx.clock.now()))) return { kind: 'duplicate' };

    const payment = event.payload.payment?.entity;
    switch (event.event) {
      case 'order.paid':
      case 'payment.captured': {
        const razorpayOrderId = payment?.order_id ?? event.payload.order?.entity.id;
        if (!payment || !razorpayOrderId) return { kind: 'ignored', reason: 'no order or payment' };
        const outcome = await applyPayment(ctx, tx, {
          razorpayOrderId,
          razorpayPaymentId: payment.id,
          source: 'webhook',
          paid: { amount: payment.amount, currency: payment.currency },
          settledInr: payment.base_amount,
        });
        return { kind: 'payment', paymentId: payment.id, outcome };
      }
      case 'payment_link.paid': {
        // A proforma's link (issue 68): the money is one receipt of the order, settled once it covers what is due.
        const link = event.payload.payment_link?.entity;
        if (!link || !payment) return { kind: 'ignored', reason: 'no payment link or payment' };
        const outcome = await recordLinkPayment(ctx, tx, {
          paymentLinkId: link.id,
          paymentId: payment.id,
          amount: payment.amount,
          razorpayOrderId: payment.order_id ?? null,
          paidAt: ctx.clock.now(),
          source: 'webhook',
        });
        return { kind: 'payment-link', outcome };
      }
      case 'payment.failed': {
        if (!payment?.order_id) return { kind: 'ignored', reason: 'no order' };
        const recorded = await recordPaymentFailure(ctx, tx, {
          razorpayOrderId: payment.order_id,
          razorpayPaymentId: payment.id,
          code: payment.error_code ?? undefined,
          description: payment.error_description ?? undefined,
        });
        return { kind: 'payment-failed', recorded };
      }
      case 'payment.dispute.created':
      case 'payment.dispute.won':
      case 'payment.dispute.lost': {
        const dispute = event.payload.dispute?.entity;
        const outcome = DISPUTE_EVENTS[event.event];
        if (!dispute || !outcome) return { kind: 'ignored', reason: 'no dispute' };
        const result = await applyDispute(ctx, tx, outcome, {
          id: dispute.id,
          paymentId: dispute.payment_id,
          amount: dispute.amount,
          reason: dispute.reason_code,
        });
        return { kind: 'dispute', result };
      }
      case 'refund.created':
      case 'refund.processed': {
        const refund = event.payload.refund?.entity;
        if (!refund) return { kind: 'ignored', reason: 'no refund' };
        const outcome = await recordRazorpayRefund(ctx, tx, {
          paymentId: refund.payment_id,
          refundId: refund.id,
          amount: refund.amount,
          amountRefunded: payment?.amount_refunded ?? undefined,
        });
        return { kind: 'refund', outcome };
      }
      default:
        return { kind: 'ignored', reason: 'event not used' };
    }
  });

  if (handled.kind === 'refund' && handled.outcome.result === 'recorded') {
    forgetOwnedTools(ctx, handled.outcome.userId);
    forgetLicenses(ctx);
    ctx.metrics.orders.inc({ event: 'refunded', currency: handled.outcome.currency });
  }
  if (handled.kind === 'dispute' && handled.result.result === 'recorded') forgetLicenses(ctx);
  if (handled.kind === 'payment-link') {
    await afterLinkPayment(ctx, handled.outcome);
    return { result: handled.outcome.result, handled };
  }
  if (handled.kind === 'payment') {
    const outcome = await afterFulfilment(ctx, handled.outcome, handled.paymentId);
    return { result: outcome.result, handled };
  }
  return { result: handled.kind, handled };
}
