import { and, eq, isNull } from 'drizzle-orm';
import type { Currency } from '../../shared/constants';
import { formatSubunits } from '../../shared/money';
import { SITE } from '../../shared/site';
import type { AppContext } from '../context';
import { downloadTokens, orders, purchases, tools, users } from '../db/schema';
import { type EmailBlock, type RenderedEmail, renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';
import { recordOrderEvent } from '../payments/fulfil';
import { EMULATOR_PREFIX, GatewayError } from '../payments/gateway';
import { forgetOwnedTools } from '../shop/catalogue';
import { toolLabel } from '../shop/delivery-email';
import { CommandError } from './framework';

export type RefundEmailInput = {
  customerName: string;
  toolName: string;
  device: string | null;
  amount: number;
  currency: Currency;
  razorpayPaymentId: string;
  refundId: string | null;
  reason: string | null;
  /** False when the order was a second payment for a tool the buyer still owns through another order. */
  endsPurchase: boolean;
};

/** The customer's notice that their money is on its way back. */
export function renderRefundEmail(input: RefundEmailInput): RenderedEmail {
  const label = toolLabel(input.toolName, input.device);
  const blocks: EmailBlock[] = [
    {
      kind: 'paragraph',
      text: `Hello ${input.customerName}, we have refunded your payment for ${label}.`,
    },
    {
      kind: 'details',
      rows: [
        ['Tool', label],
        ['Amount refunded', formatSubunits(input.amount, input.currency)],
        ['Payment reference', input.razorpayPaymentId],
        ...(input.refundId ? [['Refund reference', input.refundId] as [string, string]] : []),
        ...(input.reason ? [['Reason', input.reason] as [string, string]] : []),
      ],
    },
    {
      kind: 'paragraph',
      text: 'Razorpay returns the money to the card, account or wallet you paid with; banks usually show it within 5 to 7 working days.',
    },
  ];
  if (input.endsPurchase) {
    blocks.push({
      kind: 'paragraph',
      text: 'The license and the download links for this tool no longer work, and it no longer appears in My Tools.',
    });
  }
  blocks.push({
    kind: 'paragraph',
    text: `Questions? Reply to ${SITE.supportEmail} or call ${SITE.phone}.`,
  });
  return renderEmail({ subject: `Refund for your ${label}`, heading: 'Your refund is on its way', blocks });
}

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
};

function gatewayProblem(ctx: AppContext, error: GatewayError): CommandError {
  const emulator =
    ctx.config.razorpay.emulated && !ctx.config.razorpay.apiUrl && error.status === undefined
      ? ` The Razorpay emulator lives inside the running server (${ctx.config.publicUrl}${EMULATOR_PREFIX}); start it, with DATABASE_URL set so both can use the database.`
      : '';
  return new CommandError(`Razorpay did not refund: ${error.message}. Nothing was changed.${emulator}`);
}

/**
 * Refunds a paid order in full. Razorpay is asked first: if it refuses, nothing changes here. Then one
 * transaction marks the order and its purchase refunded, records the event, deletes the purchase's download
 * links and queues the customer's email. A payment Razorpay already shows as refunded is only recorded, so a run
 * interrupted after the gateway's answer can simply be repeated.
 */
export async function refundOrder(
  ctx: AppContext,
  orderId: string,
  reason: string | null,
): Promise<RefundResult> {
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new CommandError(`No order with id ${orderId}.`);
  if (order.status === 'refunded') throw new CommandError(`Order ${orderId} is already refunded.`);
  if (order.status !== 'paid' || !order.razorpayPaymentId) {
    throw new CommandError(`Order ${orderId} is ${order.status}, not paid: there is no payment to refund.`);
  }
  const paymentId = order.razorpayPaymentId;

  const gateway = ctx.gateway;
  let refundId: string | null = null;
  let refundedEarlier = false;
  let refundedAmount = order.amount;
  try {
    const payments = await gateway.fetchOrderPayments(order.razorpayOrderId);
    const payment = payments.find((candidate) => candidate.id === paymentId);
    if (!payment) {
      throw new CommandError(
        `Razorpay does not list payment ${paymentId} on order ${order.razorpayOrderId}; check it in the Razorpay Dashboard. Nothing was changed.`,
      );
    }
    if (payment.status === 'refunded') {
      refundedEarlier = true;
    } else if (payment.status === 'captured') {
      const refund = await gateway.refundPayment(paymentId, {
        notes: { orderId: order.id, reason: (reason ?? 'Refunded by the shop').slice(0, 256) },
      });
      refundId = refund.id;
      refundedAmount = refund.amount;
    } else {
      throw new CommandError(
        `Razorpay shows payment ${paymentId} as ${payment.status}, not captured: it cannot be refunded. Nothing was changed.`,
      );
    }
  } catch (error) {
    if (error instanceof GatewayError) throw gatewayProblem(ctx, error);
    throw error;
  }

  try {
    const refunded = await ctx.db.transaction(async (tx) => {
      const now = ctx.clock.now();
      const [locked] = await tx
        .select({ status: orders.status })
        .from(orders)
        .where(eq(orders.id, order.id))
        .for('update');
      if (locked?.status !== 'paid') {
        throw new CommandError(
          `Order ${order.id} changed to ${locked?.status} meanwhile; see "orders show".`,
        );
      }
      await tx.update(orders).set({ status: 'refunded', updatedAt: now }).where(eq(orders.id, order.id));
      const [purchase] = await tx
        .update(purchases)
        .set({ refundedAt: now })
        .where(and(eq(purchases.orderId, order.id), isNull(purchases.refundedAt)))
        .returning({ id: purchases.id });
      const revoked = purchase
        ? await tx
            .delete(downloadTokens)
            .where(eq(downloadTokens.purchaseId, purchase.id))
            .returning({ tokenHash: downloadTokens.tokenHash })
        : [];
      await recordOrderEvent(
        tx,
        order.id,
        'refunded',
        {
          source: 'admin',
          paymentId,
          refundId,
          amount: refundedAmount,
          currency: order.currency,
          reason,
          refundedEarlier,
          purchaseId: purchase?.id ?? null,
          downloadLinksRevoked: revoked.length,
        },
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
      const outboxId = await enqueueMail(
        ctx,
        tx,
        {
          to: customer.email,
          ...renderRefundEmail({
            customerName: customer.name,
            toolName: tool.name,
            device: tool.device,
            amount: refundedAmount,
            currency: order.currency,
            razorpayPaymentId: paymentId,
            refundId,
            reason,
            endsPurchase: Boolean(purchase),
          }),
          kind: 'refund-notice',
          ref: `order:${order.id}`,
        },
        now,
      );
      return {
        orderId: order.id,
        razorpayPaymentId: paymentId,
        refundId,
        amount: refundedAmount,
        currency: order.currency,
        refundedEarlier,
        purchaseId: purchase?.id ?? null,
        downloadLinksRevoked: revoked.length,
        outboxId,
      };
    });
    forgetOwnedTools(ctx, order.userId);
    return refunded;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CommandError(
      `Razorpay ${refundedEarlier ? 'shows' : 'has made'} the refund${refundId ? ` ${refundId}` : ''} for ${paymentId}, but recording it failed: ${message} Run the same command again to record it.`,
    );
  }
}
