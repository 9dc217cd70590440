import { prunePast } from '../db/prune';
import { webhookEvents } from '../db/schema/payments';

/** Ids of Razorpay events handled long ago: Razorpay retries for at most a day. */
export const razorpayEventPrune = prunePast(
  'webhookEvents',
  webhookEvents,
  webhookEvents.eventId,
  webhookEvents.receivedAt,
);
