import { z } from 'zod';
import type { Currency } from './constants';
import { multiLineText } from './input-policy';

/** The Refund Policy's exceptions a buyer can claim from the order page (docs/decisions/044). */
export const REFUND_REQUEST_REASONS = ['charged-twice', 'does-not-work', 'not-confirmed'] as const;
export type RefundRequestReason = (typeof REFUND_REQUEST_REASONS)[number];
export const REFUND_REQUEST_STATUSES = ['open', 'approved', 'declined'] as const;
export type RefundRequestStatus = (typeof REFUND_REQUEST_STATUSES)[number];

export const REFUND_REASON_LABELS: Record<RefundRequestReason, string> = {
  'charged-twice': 'I was charged twice',
  'does-not-work': 'The tool does not work and support could not fix it',
  'not-confirmed': 'Money left my account but the order was not confirmed',
};

export const REFUND_REQUEST_MESSAGES = {
  reason: 'Choose why you ask for a refund',
  description: 'Describe what happened (at least 10 characters)',
  alreadyOpen: 'This order already has an open refund request.',
  notPaid: 'Only a paid order can be refunded.',
} as const;

/** POST /api/orders/:orderId/refund-request body. */
export const buyerRefundRequestSchema = z.strictObject({
  reason: z.enum(REFUND_REQUEST_REASONS, { error: REFUND_REQUEST_MESSAGES.reason }),
  description: multiLineText(2000).pipe(
    z.string().trim().min(10, { error: REFUND_REQUEST_MESSAGES.description }),
  ),
});
export type RefundRequestInput = z.input<typeof buyerRefundRequestSchema>;

/** A refund request as the order page, the command line and the dashboard show it. */
export type RefundRequestView = {
  id: string;
  orderId: string;
  reason: RefundRequestReason;
  description: string;
  status: RefundRequestStatus;
  declineReason: string | null;
  createdAt: string;
  decidedAt: string | null;
};

/** A request in the operator's queue (dashboard, `refunds requests list`): with the buyer, tool and amount paid. */
export type RefundRequestListRow = RefundRequestView & {
  email: string;
  tool: string;
  amount: number;
  currency: Currency;
};
