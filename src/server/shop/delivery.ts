import { formatSubunits } from '../../shared/money';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db';
import type { licenses, orders, tools } from '../db/schema';
import { enqueueMail } from '../mail/outbox';
import { type DeliveredSecret, renderDeliveryEmail } from './delivery-email';
import { createDownloadToken } from './downloads';

export type DeliveryParts = {
  occasion: 'purchase' | 'resend';
  user: { id: string; name: string; email: string };
  purchaseId: string;
  order: Pick<typeof orders.$inferSelect, 'id' | 'amount' | 'currency' | 'razorpayPaymentId'>;
  tool: Pick<typeof tools.$inferSelect, 'id' | 'name' | 'device' | 'fileKey'>;
  license: Pick<typeof licenses.$inferSelect, 'licenseKey' | 'username' | 'password'>;
};

export function secretOf(license: DeliveryParts['license']): DeliveredSecret {
  if (license.licenseKey) return { licenseKey: license.licenseKey };
  if (license.username && license.password) return { username: license.username, password: license.password };
  throw new Error('license row has neither a key nor credentials');
}

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
    amountPaid: formatSubunits(parts.order.amount, parts.order.currency),
    razorpayPaymentId: parts.order.razorpayPaymentId,
    secret: secretOf(parts.license),
    downloadUrl: link?.url,
  });
  return enqueueMail(
    ctx,
    tx,
    {
      to: parts.user.email,
      ...email,
      kind: parts.occasion === 'purchase' ? 'license-delivery' : 'license-resend',
      ref: `order:${parts.order.id}`,
    },
    ctx.clock.now(),
  );
}
