import { and, eq, isNull } from 'drizzle-orm';
import type { LicenseCredentials } from '../../shared/licenses';
import { formatSubunits } from '../../shared/money';
import { orderPagePath } from '../../shared/order-detail';
import { createDownloadToken } from '../catalogue/downloads';
import type { DbOrTx } from '../db';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { licenses } from '../db/schema/licenses';
import { orders, purchases } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import { renderDeliveryEmail } from '../licenses/delivery-email';
import { revealSecret } from '../licenses/secrets-at-rest';
import { enqueueMail } from '../mail/outbox';
import { type Actor, recordAudit } from '../operator/audit';
import { recordOrderEvent } from './events';

export type DeliveryParts = {
  occasion: 'purchase' | 'resend';
  user: { id: string; name: string; email: string };
  purchaseId: string;
  order: Pick<typeof orders.$inferSelect, 'id' | 'amount' | 'tdsAmount' | 'currency' | 'razorpayPaymentId'>;
  tool: Pick<typeof tools.$inferSelect, 'id' | 'name' | 'device' | 'fileKey'>;
  /** The key or credentials, in clear only on their way into the email. */
  secret: LicenseCredentials;
  /** The purchase's tax invoice, attached to the first delivery. */
  invoice?: { id: string; number: string };
};

/**
 * Queues the email with the key or credentials, the amount paid and a fresh 3-hour download link, in the caller's
 * transaction: the email exists exactly when the purchase (or the resend request) does.
 */
export async function queueDeliveryEmail(ctx: AppContext, tx: DbOrTx, parts: DeliveryParts): Promise<number> {
  const link = parts.tool.fileKey
    ? await createDownloadToken(ctx, tx, {
        purchaseId: parts.purchaseId,
        userId: parts.user.id,
        toolId: parts.tool.id,
      })
    : undefined;
  const email = renderDeliveryEmail({
    occasion: parts.occasion,
    customerName: parts.user.name,
    toolName: parts.tool.name,
    device: parts.tool.device,
    // What the buyer paid: the total, less TDS it deducted (issue 68).
    amountPaid: formatSubunits(parts.order.amount - parts.order.tdsAmount, parts.order.currency),
    razorpayPaymentId: parts.order.razorpayPaymentId,
    secret: parts.secret,
    downloadUrl: link?.url,
    invoiceNumber: parts.invoice?.number,
    orderUrl: `${ctx.config.publicUrl}${orderPagePath(parts.order.id)}`,
  });
  return enqueueMail(
    ctx,
    tx,
    {
      to: parts.user.email,
      ...email,
      kind: parts.occasion === 'purchase' ? 'license-delivery' : 'license-resend',
      ref: `order:${parts.order.id}`,
      attachments: parts.invoice ? [{ kind: 'invoice', id: parts.invoice.id }] : [],
    },
    ctx.clock.now(),
  );
}

/** Which purchase to resend: the caller's live purchase of a tool (the web), or an order's (the operator). */
export type ResendTarget = { userId: string; toolId: string } | { orderId: string };

export type ResendOutcome =
  | { result: 'sent'; orderId: string; outboxId: number; to: string; tool: DeliveryParts['tool']; at: Date }
  /** No purchase (not bought, never paid, or for the web also refunded): nothing was queued. */
  | { result: 'no-purchase' }
  | { result: 'refunded'; refundedAt: Date }
  | { result: 'no-license' };

/**
 * The one resend of a purchase's delivery email, for "Get Credentials" (`source` 'web') and `orders resend`
 * ('admin'): a fresh download link, the same key or credentials, and a 'resent' event on the order's history, all
 * in one transaction.
 */
export async function resendDelivery(
  ctx: AppContext,
  target: ResendTarget,
  source: 'web' | 'admin' | 'dashboard',
  /** The operator who asked (dashboard or command line): the audit entry commits with the resend. */
  actor?: Actor,
): Promise<ResendOutcome> {
  const which =
    'orderId' in target
      ? eq(purchases.orderId, target.orderId)
      : and(
          eq(purchases.userId, target.userId),
          eq(purchases.toolId, target.toolId),
          isNull(purchases.refundedAt),
        );
  return ctx.db.transaction(async (tx) => {
    const [owned] = await tx
      .select({ purchase: purchases, order: orders, tool: tools, license: licenses, user: users })
      .from(purchases)
      .innerJoin(orders, eq(orders.id, purchases.orderId))
      .innerJoin(tools, eq(tools.id, purchases.toolId))
      .innerJoin(users, eq(users.id, purchases.userId))
      .leftJoin(licenses, and(eq(licenses.purchaseId, purchases.id), isNull(licenses.teamLicenseId)))
      .where(which)
      .limit(1)
      .for('update', { of: purchases });
    if (!owned) return { result: 'no-purchase' };
    if (owned.purchase.refundedAt) return { result: 'refunded', refundedAt: owned.purchase.refundedAt };
    if (!owned.license) return { result: 'no-license' };
    const now = ctx.clock.now();
    const outboxId = await queueDeliveryEmail(ctx, tx, {
      occasion: 'resend',
      user: owned.user,
      purchaseId: owned.purchase.id,
      order: owned.order,
      tool: owned.tool,
      secret: revealSecret(ctx.dataSecrets, owned.license),
    });
    await recordOrderEvent(tx, owned.order.id, 'resent', { source, outboxId }, now);
    if (actor) await recordAudit(tx, actor, { action: 'order.resend', target: `order:${owned.order.id}` });
    return {
      result: 'sent',
      orderId: owned.order.id,
      outboxId,
      to: owned.user.email,
      tool: owned.tool,
      at: now,
    };
  });
}
