import { z } from 'zod';
import { multiLineText, singleLineText } from '../../shared/input-policy';
import type { Tx } from '../db';
import { webhookEvents } from '../db/schema/payments';

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
/** A payment link (issue 68): its id, and the status and amount Razorpay reports. */
const paymentLinkEntity = z.looseObject({
  id: singleLineText(100).min(1),
  status: singleLineText(40).optional(),
  amount: z.number().int().nonnegative().optional(),
  reference_id: singleLineText(100).nullish(),
});
export const razorpayEventSchema = z.looseObject({
  event: singleLineText(100).min(1),
  payload: z.looseObject({
    payment: z.looseObject({ entity: paymentEntity }).optional(),
    order: z.looseObject({ entity: z.looseObject({ id: singleLineText(100) }) }).optional(),
    dispute: z.looseObject({ entity: disputeEntity }).optional(),
    refund: z.looseObject({ entity: refundEntity }).optional(),
    payment_link: z.looseObject({ entity: paymentLinkEntity }).optional(),
  }),
});

/** A Razorpay event as its webhook delivered it: its id (Razorpay's `x-razorpay-event-id`) and its parsed body. */
export type RazorpayEvent = z.output<typeof razorpayEventSchema> & { id: string };

/** What the app does with a verified, parsed event: `result` and `handled` go to the log and the answer. */
export type RazorpayEventHandler = (event: RazorpayEvent) => Promise<{ result: string; handled: unknown }>;

/**
 * Notes that an event was received, in the transaction that applies it: false when its id was seen before (a
 * redelivery), so the caller applies nothing.
 */
export async function recordRazorpayEvent(tx: Tx, event: RazorpayEvent, receivedAt: Date): Promise<boolean> {
  const fresh = await tx
    .insert(webhookEvents)
    .values({ eventId: event.id, event: event.event, receivedAt })
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId });
  return fresh.length > 0;
}
