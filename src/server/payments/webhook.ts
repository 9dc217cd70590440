import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { findHostileText, multiLineText, singleLineText } from '../../shared/input-policy';
import { webhookEvents } from '../db/schema';
import { AppError } from '../http/errors';
import type { AppContext } from '../kernel/context';
import { forgetLicenses } from '../licenses/memory';
import { forgetOwnedTools } from '../shop/catalogue';
import { applyDispute, type DisputeOutcome, type DisputeResult } from './disputes';
import {
  afterFulfilment,
  applyPayment,
  type FulfilOutcome,
  inFulfilmentTransaction,
  recordPaymentFailure,
} from './fulfil';
import { type RazorpayRefundOutcome, recordRazorpayRefund } from './refund';
import { verifyWebhookSignature } from './signatures';

export const WEBHOOK_PATH = '/api/razorpay/webhook/';
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** Only the parts of Razorpay's event envelope we act on; everything else in it is allowed and ignored. */
const paymentEntity = z.looseObject({
  id: singleLineText(100).min(1),
  order_id: singleLineText(100).nullish(),
  amount: z.number().int().nonnegative(),
  currency: singleLineText(10),
  base_amount: z.number().int().nonnegative().nullish(),
  error_code: singleLineText(200).nullish(),
  error_description: multiLineText(1000).nullish(),
  amount_refunded: z.number().int().nonnegative().nullish(),
});
const disputeEntity = z.looseObject({
  id: singleLineText(100).min(1),
  payment_id: singleLineText(100).min(1),
  amount: z.number().int().nonnegative().optional(),
  reason_code: singleLineText(200).nullish(),
});
const refundEntity = z.looseObject({
  id: singleLineText(100).min(1),
  payment_id: singleLineText(100).min(1),
  amount: z.number().int().nonnegative(),
});
const eventSchema = z.looseObject({
  event: singleLineText(100).min(1),
  payload: z.looseObject({
    payment: z.looseObject({ entity: paymentEntity }).optional(),
    order: z.looseObject({ entity: z.looseObject({ id: singleLineText(100) }) }).optional(),
    dispute: z.looseObject({ entity: disputeEntity }).optional(),
    refund: z.looseObject({ entity: refundEntity }).optional(),
  }),
});

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
  | { kind: 'refund'; outcome: RazorpayRefundOutcome };

const invalidSignature = () => new AppError(400, 'invalid_signature', 'Invalid webhook signature.');

/**
 * Razorpay's webhook. The signature covers the exact bytes Razorpay sent, so this route gets the body as a raw
 * string (its own content-type parser, in its own plugin scope) and checks the HMAC before parsing anything.
 * The event id is recorded in the same transaction as the event's effect: a redelivery is a no-op, and an event
 * whose handling failed is not marked as handled.
 */
export async function webhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );

    scope.post(
      WEBHOOK_PATH,
      { config: { csrf: false }, bodyLimit: WEBHOOK_BODY_LIMIT },
      async (request, reply) => {
        const secret = ctx.config.razorpay.webhookSecret;
        if (!secret) {
          request.log.error('Razorpay webhook received but RAZORPAY_WEBHOOK_SECRET is not configured');
          throw new AppError(503, 'webhook_not_configured', 'Webhooks are not configured.');
        }
        const raw = request.body;
        if (typeof raw !== 'string' || raw.length === 0) throw invalidSignature();
        if (!verifyWebhookSignature(secret, raw, request.headers['x-razorpay-signature'])) {
          throw invalidSignature();
        }

        // A signed body that is not an event we can store (bad JSON, wrong shape, NUL or a lone surrogate in any
        // string) is refused with 400 and logged: never a 500, which would make Razorpay retry it for a day.
        let parsed: z.infer<typeof eventSchema>;
        try {
          const json: unknown = JSON.parse(raw);
          const hostile = findHostileText(json);
          if (hostile) throw new Error(`${hostile.path}: ${hostile.message}`);
          const result = eventSchema.safeParse(json);
          if (!result.success) throw result.error;
          parsed = result.data;
        } catch (err) {
          request.log.warn({ err }, 'razorpay webhook refused: the signed body is not a usable event');
          throw new AppError(400, 'invalid_event', 'The webhook body is not a Razorpay event.');
        }

        const header = request.headers['x-razorpay-event-id'];
        const eventId =
          typeof header === 'string' && header.length > 0 && header.length <= 100
            ? header
            : `sha256:${createHash('sha256').update(raw).digest('hex')}`;

        const handled = await inFulfilmentTransaction(ctx, async (tx): Promise<Handled> => {
          const fresh = await tx
            .insert(webhookEvents)
            .values({ eventId, event: parsed.event, receivedAt: ctx.clock.now() })
            .onConflictDoNothing()
            .returning({ eventId: webhookEvents.eventId });
          if (fresh.length === 0) return { kind: 'duplicate' };

          const payment = parsed.payload.payment?.entity;
          switch (parsed.event) {
            case 'order.paid':
            case 'payment.captured': {
              const razorpayOrderId = payment?.order_id ?? parsed.payload.order?.entity.id;
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
              const dispute = parsed.payload.dispute?.entity;
              const outcome = DISPUTE_EVENTS[parsed.event];
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
              const refund = parsed.payload.refund?.entity;
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
        if (handled.kind === 'payment') {
          const outcome = await afterFulfilment(ctx, handled.outcome, handled.paymentId);
          request.log.info({ eventId, event: parsed.event, outcome }, 'razorpay webhook handled');
          return reply.send({ status: 'ok', result: outcome.result });
        }
        request.log.info({ eventId, event: parsed.event, handled }, 'razorpay webhook handled');
        return reply.send({ status: 'ok', result: handled.kind });
      },
    );
  });
}
