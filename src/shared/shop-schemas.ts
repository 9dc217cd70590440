import { z } from 'zod';
import { normaliseBilling, validateBilling } from './billing';
import { checkOrderTarget, seatsField } from './checkout-quote';
import { CURRENCIES } from './constants';
import { couponCodeSchema } from './coupons';
import { multiLineText, singleLineText } from './input-policy';
import { MAX_LENGTH } from './limits';

/**
 * The zod schemas of the shop's API bodies, used by the server. Kept apart from shop.ts so the browser's shop pages,
 * which need only the types and the billing rule, do not download zod.
 */

export const currencySchema = z.enum(CURRENCIES);

export const billingDetailsSchema = z
  .strictObject({
    address: multiLineText(MAX_LENGTH.billingAddress).optional().default(''),
    state: singleLineText(MAX_LENGTH.billingState).optional().default(''),
    country: singleLineText(MAX_LENGTH.billingCountry).optional().default(''),
    gstin: singleLineText(MAX_LENGTH.gstin).optional().default(''),
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
    /** Every kind but an upgrade and a renewal names the tool (refined below). */
    toolId: z.uuid({ error: 'Unknown tool' }).optional(),
    toolName: singleLineText(MAX_LENGTH.toolName).optional(),
    price: z.number().optional(),
    currency: currencySchema,
    billingDetails: billingDetailsSchema,
    /** Optional; the server judges and applies it (an empty field is no code). */
    couponCode: z.preprocess(
      (value) => (value === '' || value === null ? undefined : value),
      couponCodeSchema.optional(),
    ),
    /** How many seats (1–50, decision 051); more than one makes a team license. */
    seats: seatsField,
    /** "Add seats": the team license (owned by the buyer) the seats are added to, instead of a new license. */
    teamLicenseId: z.uuid({ error: 'Unknown team license' }).optional(),
    /** The edition bought, of a tool with editions (decision 056). */
    editionId: z.uuid({ error: 'Unknown edition' }).optional(),
    /** An upgrade: the buyer's license that moves to the edition `editionId` (then no toolId is needed). */
    upgradeLicenseId: z.uuid({ error: 'Unknown license' }).optional(),
    /** A renewal: the buyer's license whose updates are renewed for another period (no toolId needed). */
    renewLicenseId: z.uuid({ error: 'Unknown license' }).optional(),
  })
  .superRefine((body, check) => {
    checkOrderTarget(body, check);
    if (body.billingDetails.currency !== body.currency)
      check.addIssue({
        code: 'custom',
        path: ['billingDetails', 'currency'],
        message: 'The billing currency must match the order currency',
      });
  });
export type CreatePaymentRequest = z.input<typeof createPaymentSchema>;

/** POST /api/verify-payment/ body. */
export const verifyPaymentSchema = z.strictObject({
  razorpay_order_id: singleLineText(MAX_LENGTH.razorpayId).min(1),
  razorpay_payment_id: singleLineText(MAX_LENGTH.razorpayId).min(1),
  razorpay_signature: singleLineText(MAX_LENGTH.razorpaySignature).min(1),
  toolId: z.uuid().optional(),
  currency: currencySchema.optional(),
});
export type VerifyPaymentRequest = z.input<typeof verifyPaymentSchema>;

/** POST /api/send-tool-credentials/ body. */
export const sendCredentialsSchema = z.strictObject({ toolId: z.uuid({ error: 'Unknown tool' }) });

/** POST /api/trials/ body. */
export const startTrialSchema = z.strictObject({ toolId: z.uuid({ error: 'Unknown tool' }) });
