import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { pathStrings } from '../../http/route-schemas';
import type { RazorpayOrder, RazorpayPayment, RazorpayRefund } from '../gateway';
import { checkoutSignature, webhookSignature } from '../signatures';
import { EMULATOR_ANSWERS } from './answers';

/**
 * A stand-in for Razorpay in development and tests: the Orders API the gateway module calls, a checkout script
 * with Razorpay Checkout's browser API, correctly signed handler responses, and signed webhooks sent back to the
 * app. The real gateway code runs against it unchanged. It is never mounted in production.
 */
export type EmulatorOptions = {
  keyId: string;
  keySecret: string;
  /** Signs the webhooks; without it (or a URL) no webhooks are sent. */
  webhookSecret?: string;
  /** Where webhooks go, e.g. `${PUBLIC_URL}/api/razorpay/webhook/`. */
  webhookUrl?: string;
  /** How long after a checkout outcome its webhook is sent: the browser's own verify call usually wins. */
  webhookDelayMs?: number;
  /** URL prefix of every emulator route. */
  prefix?: string;
  log?: { warn(obj: object, msg: string): void };
};

export type RazorpayEmulator = {
  orders: Map<string, RazorpayOrder>;
  payments: Map<string, RazorpayPayment>;
  /** Resolves when every scheduled webhook has been delivered (or has failed). */
  settled(): Promise<void>;
  /** Counts of webhooks sent, by event name, for tests. */
  sentWebhooks: Array<{ event: string; eventId: string; status: number | 'error' }>;
};

export const EMULATOR_DECLINE_DESCRIPTION = 'Payment was declined by the test checkout.';
/** Rupees per US dollar in the emulator's `base_amount`, Razorpay's settled value of an international payment. */
export const EMULATOR_USD_INR_RATE = 84;

const checkoutScript = readFileSync(path.join(import.meta.dirname, 'checkout.js'));

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function razorpayId(prefix: string): string {
  const bytes = randomBytes(14);
  let id = '';
  for (const byte of bytes) id += ID_ALPHABET.charAt(byte % ID_ALPHABET.length);
  return `${prefix}_${id}`;
}

const unixNow = () => Math.floor(Date.now() / 1000);

function razorpayError(reply: FastifyReply, status: number, description: string, field?: string) {
  return reply.status(status).send({
    error: {
      code: 'BAD_REQUEST_ERROR',
      description,
      source: 'business',
      step: 'payment_initiation',
      reason: 'input_validation_failed',
      metadata: {},
      ...(field ? { field } : {}),
    },
  });
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const createOrderSchema = z.object({
  amount: z.number().int().min(100, 'Order amount less than minimum amount allowed'),
  currency: z.enum(['INR', 'USD']),
  receipt: z.string().max(40).optional(),
  notes: z.record(z.string(), z.union([z.string().max(256), z.number()])).optional(),
  partial_payment: z.boolean().optional(),
});

const checkoutBodySchema = z.object({ key_id: z.string().max(100) });

export async function registerRazorpayEmulator(
  app: FastifyInstance,
  options: EmulatorOptions,
): Promise<RazorpayEmulator> {
  const prefix = (options.prefix ?? '/emulator').replace(/\/+$/, '');
  const api = `${prefix}/razorpay`;
  const delay = options.webhookDelayMs ?? 1000;
  const orders = new Map<string, RazorpayOrder>();
  const payments = new Map<string, RazorpayPayment>();
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  const sentWebhooks: RazorpayEmulator['sentWebhooks'] = [];
  let idle: Array<() => void> = [];

  const wakeIfIdle = () => {
    if (timers.size === 0 && inFlight.size === 0) for (const wake of idle.splice(0)) wake();
  };

  const sendWebhook = (event: string, payload: Record<string, unknown>) => {
    const { webhookSecret, webhookUrl } = options;
    if (!webhookSecret || !webhookUrl) return;
    const eventId = razorpayId('evt');
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_Emulator000001',
      event,
      contains: Object.keys(payload),
      payload,
      created_at: unixNow(),
    });
    const timer = setTimeout(() => {
      timers.delete(timer);
      const delivery = fetch(webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': webhookSignature(webhookSecret, body),
          'x-razorpay-event-id': eventId,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      })
        .then(async (response) => {
          await response.arrayBuffer();
          sentWebhooks.push({ event, eventId, status: response.status });
        })
        .catch((error: unknown) => {
          sentWebhooks.push({ event, eventId, status: 'error' });
          options.log?.warn({ err: error, event }, 'emulator could not deliver a webhook');
        })
        .finally(() => {
          inFlight.delete(delivery);
          wakeIfIdle();
        });
      inFlight.add(delivery);
    }, delay);
    timers.add(timer);
  };

  const authenticated = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const header = request.headers.authorization ?? '';
    const [scheme, encoded] = header.split(' ');
    const expected = `${options.keyId}:${options.keySecret}`;
    if (scheme === 'Basic' && encoded && sameText(Buffer.from(encoded, 'base64').toString(), expected))
      return true;
    reply.status(401).send({ error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } });
    return false;
  };

  app.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    await Promise.allSettled([...inFlight]);
  });

  // ── Orders API (what the gateway module calls) ──────────────────────────────────────────────────────────

  const createOrder = { schema: { response: EMULATOR_ANSWERS.order }, config: { csrf: false } };
  app.post(`${api}/v1/orders`, createOrder, async (request, reply) => {
    if (!authenticated(request, reply)) return reply;
    const parsed = createOrderSchema.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return razorpayError(reply, 400, issue?.message ?? 'Invalid request', issue?.path.join('.'));
    }
    const order: RazorpayOrder = {
      id: razorpayId('order'),
      entity: 'order',
      amount: parsed.data.amount,
      amount_paid: 0,
      amount_due: parsed.data.amount,
      currency: parsed.data.currency,
      receipt: parsed.data.receipt ?? null,
      status: 'created',
      attempts: 0,
      notes: Object.fromEntries(Object.entries(parsed.data.notes ?? {}).map(([k, v]) => [k, String(v)])),
      created_at: unixNow(),
    };
    orders.set(order.id, order);
    return reply.send(order);
  });

  app.get<{ Params: { id: string } }>(
    `${api}/v1/orders/:id`,
    { schema: { params: pathStrings('id'), response: EMULATOR_ANSWERS.order } },
    async (request, reply) => {
      if (!authenticated(request, reply)) return reply;
      const order = orders.get(request.params.id);
      if (!order) return razorpayError(reply, 400, 'The id provided does not exist', 'id');
      return reply.send(order);
    },
  );

  app.get<{ Params: { id: string } }>(
    `${api}/v1/orders/:id/payments`,
    { schema: { params: pathStrings('id'), response: EMULATOR_ANSWERS.payments } },
    async (request, reply) => {
      if (!authenticated(request, reply)) return reply;
      if (!orders.has(request.params.id))
        return razorpayError(reply, 400, 'The id provided does not exist', 'id');
      const items = [...payments.values()].filter((payment) => payment.order_id === request.params.id);
      return reply.send({ entity: 'collection', count: items.length, items });
    },
  );

  const refundsByIdempotencyKey = new Map<string, RazorpayRefund>();

  /** Refunds a captured payment in full or in part and tells the app, as Razorpay does for every refund. */
  const refund = (payment: RazorpayPayment, amount: number, notes: unknown): RazorpayRefund => {
    const refunded: RazorpayRefund & { notes: unknown; created_at: number } = {
      id: razorpayId('rfnd'),
      entity: 'refund',
      amount,
      currency: payment.currency,
      payment_id: payment.id,
      status: 'processed',
      notes: notes ?? {},
      created_at: unixNow(),
    };
    const record = payment as RazorpayPayment & { amount_refunded?: number; refund_status?: string };
    record.amount_refunded = (record.amount_refunded ?? 0) + amount;
    record.refund_status = record.amount_refunded >= payment.amount ? 'full' : 'partial';
    if (record.refund_status === 'full') payment.status = 'refunded';
    sendWebhook('refund.created', { refund: { entity: refunded }, payment: { entity: { ...payment } } });
    sendWebhook('refund.processed', { refund: { entity: refunded }, payment: { entity: { ...payment } } });
    return refunded;
  };

  app.post<{ Params: { id: string } }>(
    `${api}/v1/payments/:id/refund`,
    { schema: { params: pathStrings('id'), response: EMULATOR_ANSWERS.refund }, config: { csrf: false } },
    async (request, reply) => {
      if (!authenticated(request, reply)) return reply;
      // Razorpay answers a repeated X-Refund-Idempotency with the refund it already made, never a second one.
      const idempotencyKey = request.headers['x-refund-idempotency'];
      const earlier =
        typeof idempotencyKey === 'string' ? refundsByIdempotencyKey.get(idempotencyKey) : undefined;
      if (earlier) return reply.send(earlier);
      const payment = payments.get(request.params.id);
      if (!payment) return razorpayError(reply, 400, 'The id provided does not exist', 'id');
      if (payment.status !== 'captured') {
        return razorpayError(reply, 400, 'The payment has not been captured or is already refunded');
      }
      const body = (request.body ?? {}) as { amount?: unknown; notes?: unknown };
      const amount = typeof body.amount === 'number' ? body.amount : payment.amount;
      if (!Number.isInteger(amount) || amount <= 0 || amount > payment.amount) {
        return razorpayError(
          reply,
          400,
          'The refund amount provided is greater than amount captured',
          'amount',
        );
      }
      const refunded = refund(payment, amount, body.notes);
      if (typeof idempotencyKey === 'string') refundsByIdempotencyKey.set(idempotencyKey, refunded);
      return reply.send(refunded);
    },
  );

  // ── Test controls: what happens at Razorpay without the app asking (Dashboard, banks, late UPI) ─────────────

  /** A refund made by hand in the Razorpay Dashboard: only the webhooks tell the app. */
  app.post<{ Params: { id: string } }>(
    `${api}/test/payments/:id/dashboard-refund`,
    { schema: { params: pathStrings('id'), response: EMULATOR_ANSWERS.refund }, config: { csrf: false } },
    async (request, reply) => {
      if (!authenticated(request, reply)) return reply;
      const payment = payments.get(request.params.id);
      if (payment?.status !== 'captured') {
        return razorpayError(reply, 400, 'The payment has not been captured or is already refunded');
      }
      const body = (request.body ?? {}) as { amount?: unknown };
      const amount = typeof body.amount === 'number' ? body.amount : payment.amount;
      return reply.send(refund(payment, amount, { source: 'dashboard' }));
    },
  );

  const disputeStatus = z.object({ status: z.enum(['created', 'won', 'lost']) });
  const disputes = new Map<string, Record<string, unknown>>();

  /** A chargeback the buyer's bank opens, and its outcome: payment.dispute.created / .won / .lost. */
  app.post<{ Params: { id: string } }>(
    `${api}/test/payments/:id/dispute`,
    { schema: { params: pathStrings('id'), response: EMULATOR_ANSWERS.dispute }, config: { csrf: false } },
    async (request, reply) => {
      if (!authenticated(request, reply)) return reply;
      const payment = payments.get(request.params.id);
      const parsed = disputeStatus.safeParse(request.body);
      if (!payment || !parsed.success) return razorpayError(reply, 400, 'Unknown payment or dispute status');
      const dispute = disputes.get(payment.id) ?? {
        id: razorpayId('disp'),
        entity: 'dispute',
        payment_id: payment.id,
        amount: payment.amount,
        currency: payment.currency,
        reason_code: 'chargeback',
        phase: 'chargeback',
        created_at: unixNow(),
      };
      dispute.status = parsed.data.status === 'created' ? 'open' : parsed.data.status;
      disputes.set(payment.id, dispute);
      sendWebhook(`payment.dispute.${parsed.data.status}`, {
        payment: { entity: { ...payment } },
        dispute: { entity: { ...dispute } },
      });
      return reply.send(dispute);
    },
  );

  /** A UPI payment reported failed that the bank captures after all, minutes later. */
  app.post<{ Params: { id: string } }>(
    `${api}/test/payments/:id/late-capture`,
    { schema: { params: pathStrings('id'), response: EMULATOR_ANSWERS.payment }, config: { csrf: false } },
    async (request, reply) => {
      if (!authenticated(request, reply)) return reply;
      const payment = payments.get(request.params.id);
      const order = payment?.order_id ? orders.get(payment.order_id) : undefined;
      if (!payment || !order || payment.status !== 'failed') {
        return razorpayError(reply, 400, 'Only a failed payment can be captured late');
      }
      payment.status = 'captured';
      payment.captured = true;
      payment.error_code = null;
      payment.error_description = null;
      order.status = 'paid';
      order.amount_paid = order.amount;
      order.amount_due = 0;
      sendWebhook('payment.captured', { payment: { entity: { ...payment } }, order: { entity: order } });
      return reply.send(payment);
    },
  );

  // ── Checkout (what the stand-in checkout.js calls from the browser) ──────────────────────────────────────

  app.get(
    `${prefix}/checkout.js`,
    { schema: { response: EMULATOR_ANSWERS.script } },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(checkoutScript),
  );

  app.get<{ Params: { orderId: string } }>(
    `${api}/checkout/:orderId`,
    { schema: { params: pathStrings('orderId'), response: EMULATOR_ANSWERS.checkoutOrder } },
    async (request, reply) => {
      const order = orders.get(request.params.orderId);
      if (!order) return razorpayError(reply, 404, 'The id provided does not exist', 'order_id');
      return reply.send({
        id: order.id,
        amount: order.amount,
        currency: order.currency,
        status: order.status,
      });
    },
  );

  const checkoutOrder = (request: FastifyRequest<{ Params: { orderId: string } }>, reply: FastifyReply) => {
    const body = checkoutBodySchema.safeParse(request.body);
    if (!body.success || body.data.key_id !== options.keyId) {
      razorpayError(reply, 400, 'The api key provided is invalid', 'key_id');
      return undefined;
    }
    const order = orders.get(request.params.orderId);
    if (!order) {
      razorpayError(reply, 400, 'The id provided does not exist', 'order_id');
      return undefined;
    }
    if (order.status === 'paid') {
      razorpayError(reply, 400, 'Order has already been paid');
      return undefined;
    }
    order.attempts += 1;
    return order;
  };

  const newPayment = (order: RazorpayOrder, status: 'captured' | 'failed'): RazorpayPayment => {
    const payment: RazorpayPayment & Record<string, unknown> = {
      id: razorpayId('pay'),
      entity: 'payment',
      amount: order.amount,
      currency: order.currency,
      // What Razorpay settles in rupees: the amount itself for INR, converted at the emulator's rate otherwise.
      base_amount: order.currency === 'INR' ? order.amount : Math.round(order.amount * EMULATOR_USD_INR_RATE),
      base_currency: 'INR',
      status,
      order_id: order.id,
      method: 'card',
      captured: status === 'captured',
      description: 'Emulated test payment',
      error_code: status === 'failed' ? 'BAD_REQUEST_ERROR' : null,
      error_description: status === 'failed' ? EMULATOR_DECLINE_DESCRIPTION : null,
      error_reason: status === 'failed' ? 'payment_failed' : null,
      created_at: unixNow(),
    };
    payments.set(payment.id, payment);
    return payment;
  };

  app.post<{ Params: { orderId: string } }>(
    `${api}/checkout/:orderId/pay`,
    { schema: { params: pathStrings('orderId'), response: EMULATOR_ANSWERS.paid }, config: { csrf: false } },
    async (request, reply) => {
      const order = checkoutOrder(request, reply);
      if (!order) return reply;
      const payment = newPayment(order, 'captured');
      order.status = 'paid';
      order.amount_paid = order.amount;
      order.amount_due = 0;
      sendWebhook('order.paid', { payment: { entity: payment }, order: { entity: order } });
      return reply.send({
        razorpay_order_id: order.id,
        razorpay_payment_id: payment.id,
        razorpay_signature: checkoutSignature(options.keySecret, order.id, payment.id),
      });
    },
  );

  app.post<{ Params: { orderId: string } }>(
    `${api}/checkout/:orderId/fail`,
    {
      schema: { params: pathStrings('orderId'), response: EMULATOR_ANSWERS.declined },
      config: { csrf: false },
    },
    async (request, reply) => {
      const order = checkoutOrder(request, reply);
      if (!order) return reply;
      const payment = newPayment(order, 'failed');
      order.status = 'attempted';
      sendWebhook('payment.failed', { payment: { entity: payment } });
      return reply.send({
        error: {
          code: 'BAD_REQUEST_ERROR',
          description: EMULATOR_DECLINE_DESCRIPTION,
          source: 'customer',
          step: 'payment_authorization',
          reason: 'payment_failed',
          metadata: { order_id: order.id, payment_id: payment.id },
        },
      });
    },
  );

  return {
    orders,
    payments,
    sentWebhooks,
    settled() {
      if (timers.size === 0 && inFlight.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        idle = [...idle, resolve];
      });
    },
  };
}
