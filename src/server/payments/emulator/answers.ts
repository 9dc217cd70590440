import { z } from 'zod';
import { errorAnswerSchema } from '../../../shared/api-schemas';
import { answerIn, refusals } from '../../http/answers';

/**
 * What the Razorpay emulator answers, in Razorpay's own shapes (its fields in the order the emulator writes them):
 * the gateway reads these as it reads Razorpay's. Development and tests only; not in the OpenAPI document.
 */

const razorpayError = z
  .object({
    error: z.object({
      code: z.string(),
      description: z.string(),
      source: z.string().optional(),
      step: z.string().optional(),
      reason: z.string().optional(),
      metadata: z.record(z.string(), z.string()).optional(),
      field: z.string().optional(),
    }),
  })
  .describe("Razorpay's error: `error.description` says why, `error.field` names the field");

/**
 * A 400 is Razorpay's error when the emulator refuses, and the site's one error when the app's hooks refuse first
 * (the input policy, a path the schema refuses): each keeps its own shape.
 */
const emulatorRefusal = z.union([razorpayError, errorAnswerSchema]);

const order = z.object({
  id: z.string(),
  entity: z.literal('order'),
  amount: z.int(),
  amount_paid: z.int(),
  amount_due: z.int(),
  currency: z.string(),
  receipt: z.string().nullable(),
  status: z.enum(['created', 'attempted', 'paid']),
  attempts: z.int(),
  notes: z.record(z.string(), z.string()),
  created_at: z.int(),
});

const payment = z.object({
  id: z.string(),
  entity: z.literal('payment'),
  amount: z.int(),
  currency: z.string(),
  base_amount: z.int(),
  base_currency: z.string(),
  status: z.enum(['created', 'authorized', 'captured', 'refunded', 'failed']),
  order_id: z.string().nullable(),
  method: z.string(),
  captured: z.boolean(),
  description: z.string(),
  error_code: z.string().nullable(),
  error_description: z.string().nullable(),
  error_reason: z.string().nullable(),
  created_at: z.int(),
  amount_refunded: z.int().optional(),
  refund_status: z.enum(['partial', 'full']).optional(),
});

const refund = z.object({
  id: z.string(),
  entity: z.literal('refund'),
  amount: z.int(),
  currency: z.string(),
  payment_id: z.string(),
  status: z.string(),
  notes: z.unknown(),
  created_at: z.int(),
});

const dispute = z.object({
  id: z.string(),
  entity: z.literal('dispute'),
  payment_id: z.string(),
  amount: z.int(),
  currency: z.string(),
  reason_code: z.string(),
  phase: z.string(),
  created_at: z.int(),
  status: z.enum(['open', 'won', 'lost']),
});

/** Razorpay's API (basic auth with the key id and secret): 401 without it, 400 for what Razorpay refuses. */
const api = <Answer extends z.ZodType>(answer: Answer) => ({
  200: answer,
  400: emulatorRefusal,
  401: razorpayError,
  ...refusals(),
});

export const EMULATOR_ANSWERS = {
  order: api(order),
  payments: api(z.object({ entity: z.literal('collection'), count: z.int(), items: z.array(payment) })),
  payment: api(payment),
  refund: api(refund),
  dispute: api(dispute),
  script: { 200: answerIn('The stand-in for checkout.js', { 'text/javascript': z.string() }), ...refusals() },
  checkoutOrder: {
    200: z.object({ id: z.string(), amount: z.int(), currency: z.string(), status: z.string() }),
    400: errorAnswerSchema,
    404: razorpayError,
    ...refusals(),
  },
  /** What Razorpay Checkout hands the page's handler after a payment, signed with the key secret. */
  paid: {
    200: z.object({
      razorpay_order_id: z.string(),
      razorpay_payment_id: z.string(),
      razorpay_signature: z.string(),
    }),
    400: emulatorRefusal,
    ...refusals(),
  },
  /** A declined payment, as Checkout's `payment.failed` event carries it. */
  declined: { 200: razorpayError, 400: emulatorRefusal, ...refusals() },
};
