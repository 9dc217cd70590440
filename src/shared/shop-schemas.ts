import { z } from 'zod';
import { normaliseBilling, validateBilling } from './billing';
import { checkOrderTarget, orderChoiceFields } from './checkout-quote';
import { CURRENCIES } from './constants';
import { multiLineText, singleLineText } from './input-policy';
import { MAX_LENGTH } from './limits';
import { mayPayAsFirm, normalisePan, PROFORMA_MESSAGES, panProblem } from './proforma';

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

/** What an order is for and how it is billed: create-payment and the proforma take the same. */
const orderFields = {
  /** Every kind but an upgrade and a renewal names the tool (refined below). */
  toolId: z.uuid({ error: 'Unknown tool' }).optional(),
  currency: currencySchema,
  billingDetails: billingDetailsSchema,
  ...orderChoiceFields,
  /** The PAN the buyer deducts TDS under (required with `tds`; the GSTIN's own when the buyer has one). */
  pan: z.preprocess(
    (value) => (typeof value === 'string' ? normalisePan(value) : value === null ? undefined : value),
    singleLineText(MAX_LENGTH.pan).optional().default(''),
  ),
};

type OrderFields = {
  toolId?: string;
  teamLicenseId?: string;
  upgradeLicenseId?: string;
  renewLicenseId?: string;
  currency: string;
  seats: number;
  tds: boolean;
  pan: string;
  billingDetails: { currency: string; gstin: string };
};

/** The rules every order request keeps beyond its fields' own: one target, one currency, TDS only as a firm. */
function checkOrderRequest(body: OrderFields, check: z.core.$RefinementCtx): void {
  checkOrderTarget(body, check);
  if (body.billingDetails.currency !== body.currency)
    check.addIssue({
      code: 'custom',
      path: ['billingDetails', 'currency'],
      message: 'The billing currency must match the order currency',
    });
  if (!body.tds) return;
  const asFirm = mayPayAsFirm({
    currency: body.currency === 'INR' ? 'INR' : 'USD',
    gstin: body.billingDetails.gstin,
    seats: body.seats,
    addsSeats: Boolean(body.teamLicenseId),
  });
  if (!asFirm)
    check.addIssue({
      code: 'custom',
      path: ['tds'],
      message: body.currency === 'INR' ? PROFORMA_MESSAGES.tdsNeedsBusiness : PROFORMA_MESSAGES.rupeesOnly,
    });
  const problem = panProblem(body.pan, body.billingDetails.gstin);
  if (problem) check.addIssue({ code: 'custom', path: ['pan'], message: problem });
}

/** POST /api/create-payment/ body. `toolName` and `price` are accepted for the product document's browser but ignored. */
export const createPaymentSchema = z
  .strictObject({
    ...orderFields,
    toolName: singleLineText(MAX_LENGTH.toolName).optional(),
    price: z.number().optional(),
  })
  .superRefine(checkOrderRequest);
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

/**
 * POST /api/checkout/proforma body (issue 68): what create-payment takes (the quote's order and the payment's
 * billing details), with `tds` and `pan`. A proforma is for a business buyer with a GSTIN or a team of seats, in
 * rupees: said on the field that decides it.
 */
export const proformaRequestSchema = z.strictObject(orderFields).superRefine((body, check) => {
  checkOrderRequest(body, check);
  if (body.currency !== 'INR')
    check.addIssue({ code: 'custom', path: ['currency'], message: PROFORMA_MESSAGES.rupeesOnly });
  else if (
    !mayPayAsFirm({
      currency: 'INR',
      gstin: body.billingDetails.gstin,
      seats: body.seats,
      addsSeats: Boolean(body.teamLicenseId),
    })
  )
    check.addIssue({
      code: 'custom',
      path: ['billingDetails', 'gstin'],
      message: PROFORMA_MESSAGES.notEligible,
    });
});
export type ProformaRequest = z.input<typeof proformaRequestSchema>;
