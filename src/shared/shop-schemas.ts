import { z } from 'zod';
import { CURRENCIES } from './constants';
import { multiLineText, singleLineText } from './input-policy';
import { normaliseBilling, validateBilling } from './shop';

/**
 * The zod schemas of the shop's API bodies, used by the server. Kept apart from shop.ts so the browser's shop pages,
 * which need only the types and the billing rule, do not download zod.
 */

export const currencySchema = z.enum(CURRENCIES);

export const billingDetailsSchema = z
  .strictObject({
    address: multiLineText(300).optional().default(''),
    state: singleLineText(80).optional().default(''),
    country: singleLineText(80).optional().default(''),
    gstin: singleLineText(20).optional().default(''),
    currency: currencySchema,
  })
  .superRefine((values, check) => {
    for (const [field, message] of Object.entries(validateBilling(values))) {
      check.addIssue({ code: 'custom', path: [field], message });
    }
  })
  .transform(normaliseBilling);
export type BillingDetails = z.output<typeof billingDetailsSchema>;

/** POST /api/create-payment/ body. `toolName` and `price` are accepted for the spec's browser but ignored. */
export const createPaymentSchema = z
  .strictObject({
    toolId: z.uuid({ error: 'Unknown tool' }),
    toolName: singleLineText(200).optional(),
    price: z.number().optional(),
    currency: currencySchema,
    billingDetails: billingDetailsSchema,
  })
  .refine((body) => body.billingDetails.currency === body.currency, {
    path: ['billingDetails', 'currency'],
    message: 'The billing currency must match the order currency',
  });
export type CreatePaymentRequest = z.input<typeof createPaymentSchema>;

/** POST /api/verify-payment/ body. */
export const verifyPaymentSchema = z.strictObject({
  razorpay_order_id: singleLineText(100).min(1),
  razorpay_payment_id: singleLineText(100).min(1),
  razorpay_signature: singleLineText(200).min(1),
  toolId: z.uuid().optional(),
  currency: currencySchema.optional(),
});
export type VerifyPaymentRequest = z.input<typeof verifyPaymentSchema>;

/** POST /api/send-tool-credentials/ body. */
export const sendCredentialsSchema = z.strictObject({ toolId: z.uuid({ error: 'Unknown tool' }) });
