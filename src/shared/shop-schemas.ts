import { z } from 'zod';
import { CURRENCIES } from './constants';
import { MAX_LENGTH } from './limits';
import { normaliseBilling, validateBilling } from './shop';

/**
 * The zod schemas of the shop's API bodies, used by the server. Kept apart from shop.ts so the browser's shop pages,
 * which need only the types and the billing rule, do not download zod.
 */

export const currencySchema = z.enum(CURRENCIES);

export const billingDetailsSchema = z
  .strictObject({
    address: z.string().max(MAX_LENGTH.billingAddress).optional().default(''),
    state: z.string().max(MAX_LENGTH.billingState).optional().default(''),
    country: z.string().max(MAX_LENGTH.billingCountry).optional().default(''),
    gstin: z.string().max(MAX_LENGTH.gstin).optional().default(''),
    currency: currencySchema,
  })
  .superRefine((values, check) => {
    for (const [field, message] of Object.entries(validateBilling(values))) {
      check.addIssue({ code: 'custom', path: [field], message });
    }
  })
  .transform(normaliseBilling);
export type BillingDetails = z.output<typeof billingDetailsSchema>;

/** POST /api/create-payment/ body. `toolName` and `price` are accepted for the product document's browser but ignored. */
export const createPaymentSchema = z
  .strictObject({
    toolId: z.uuid({ error: 'Unknown tool' }),
    toolName: z.string().max(MAX_LENGTH.toolName).optional(),
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
  razorpay_order_id: z.string().min(1).max(MAX_LENGTH.razorpayId),
  razorpay_payment_id: z.string().min(1).max(MAX_LENGTH.razorpayId),
  razorpay_signature: z.string().min(1).max(MAX_LENGTH.razorpaySignature),
  toolId: z.uuid().optional(),
  currency: currencySchema.optional(),
});
export type VerifyPaymentRequest = z.input<typeof verifyPaymentSchema>;

/** POST /api/send-tool-credentials/ body. */
export const sendCredentialsSchema = z.strictObject({ toolId: z.uuid({ error: 'Unknown tool' }) });
