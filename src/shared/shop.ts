import { z } from 'zod';
import { CURRENCIES, type Currency } from './constants';

/**
 * The shop's API contract (spec §3, §7), shared by the server and the browser.
 * Money in responses is in major units (rupees, dollars) as the spec's browser expects; the database keeps subunits.
 */

export type Device = 'Windows' | 'macOS';

/** GET /api/alltools/ → Tool[] */
export type Tool = {
  _id: string;
  name: string;
  description: string;
  /** null: no device (the card's button then says "Purchase"). */
  device: Device | null;
  /** The INR price, kept for the spec's `price` fallback. */
  price: number;
  priceINR: number;
  priceUSD: number | null;
  comingSoon: boolean;
  purchased: boolean;
  icon: string | null;
};

/** GET /api/my-tools/ → PurchasedTool[] */
export type PurchasedTool = {
  _id: string;
  name: string;
  description: string;
  icon: string | null;
  /** ISO timestamp, or null when unknown (shown as N/A). */
  purchaseDate: string | null;
};

export const currencySchema = z.enum(CURRENCIES);

export const billingDetailsSchema = z.strictObject({
  address: z.string().max(300).optional().default(''),
  state: z.string().max(80).optional().default(''),
  country: z.string().max(80).optional().default(''),
  gstin: z.string().max(15).optional().default(''),
  currency: currencySchema,
});
export type BillingDetails = z.output<typeof billingDetailsSchema>;

/** POST /api/create-payment/ body. `toolName` and `price` are accepted for the spec's browser but ignored. */
export const createPaymentSchema = z.strictObject({
  toolId: z.uuid({ error: 'Unknown tool' }),
  toolName: z.string().max(200).optional(),
  price: z.number().optional(),
  currency: currencySchema,
  billingDetails: billingDetailsSchema,
});
export type CreatePaymentRequest = z.input<typeof createPaymentSchema>;

export type CreatePaymentResponse = {
  status: 'success';
  order_id: string;
  razorpay_key_id: string;
  /** In subunits (paise, cents), as Razorpay's checkout takes it. */
  amount: number;
  currency: Currency;
  name: string;
  email: string;
  phone: string;
  message: string;
};

/** POST /api/verify-payment/ body. */
export const verifyPaymentSchema = z.strictObject({
  razorpay_order_id: z.string().min(1).max(100),
  razorpay_payment_id: z.string().min(1).max(100),
  razorpay_signature: z.string().min(1).max(200),
  toolId: z.uuid().optional(),
  currency: currencySchema.optional(),
});
export type VerifyPaymentRequest = z.input<typeof verifyPaymentSchema>;

/** POST /api/send-tool-credentials/ body. */
export const sendCredentialsSchema = z.strictObject({ toolId: z.uuid({ error: 'Unknown tool' }) });

export type StatusResponse = { status: 'success' | 'error'; message: string };
