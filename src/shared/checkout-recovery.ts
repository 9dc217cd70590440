import { z } from 'zod';
import { couponCodeSchema } from './coupons';

/**
 * Checkout recovery (docs/decisions/047-openapi-and-checkout-recovery.md): a signed-in buyer who opened the billing
 * dialog or a payment and did not pay is reminded after an hour and, last, after a day.
 */
export const CHECKOUT_REMINDER_DELAYS_MS = [60 * 60 * 1000, 24 * 60 * 60 * 1000] as const;

/** `POST /api/checkout/opened` body: the billing dialog opened for this tool, with the coupon it holds if any. */
export const checkoutOpenedSchema = z.strictObject({
  toolId: z.uuid({ error: 'Unknown tool' }),
  couponCode: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    couponCodeSchema.optional(),
  ),
});
export type CheckoutOpenedRequest = z.input<typeof checkoutOpenedSchema>;

/** Its answer: false when nothing is remembered (the buyer owns the tool, or it is coming soon). */
export const checkoutOpenedAnswerSchema = z.object({ recorded: z.boolean() }).meta({ id: 'CheckoutOpened' });

/** The link a reminder carries: the tools page opens the billing dialog for the tool, with the coupon entered. */
export function checkoutLink(publicUrl: string, toolId: string, couponCode: string | null): string {
  const query = new URLSearchParams({ checkout: toolId });
  if (couponCode) query.set('coupon', couponCode);
  return `${publicUrl}/utility-tools?${query}`;
}
