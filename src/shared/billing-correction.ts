import { z } from 'zod';
import { BILLING_MESSAGES, gstinProblem } from './billing';
import { normaliseGstin } from './gstin';
import { findIndianState } from './indian-states';
import { multiLineText, singleLineText } from './input-policy';
import { MAX_LENGTH } from './limits';

/**
 * POST /api/orders/:orderId/billing (docs/decisions/050-billing-correction.md): the buyer adds or corrects the
 * GSTIN and billing address of a paid order; the shop cancels the invoice by a credit note and issues a new one.
 */

/** The last day of a correction (`YYYY-MM-DD`) as the buyer reads it, on the order page and in the refusal. */
export const correctionDeadlineText = (isoDate: string) =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-IN', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

export const BILLING_CORRECTION_MESSAGES = {
  unchanged: 'Nothing changed: these are the billing details the invoice already has.',
  notPaid: 'Only a paid order’s billing details can be corrected.',
  refunded: 'This order was refunded: its billing details can no longer be corrected.',
  noInvoice: 'This order has no tax invoice to correct.',
  notIndia: 'Only an order billed in India can have a GSTIN and an Indian billing address added.',
  pastDeadline: (deadline: string) =>
    `The billing details of this invoice could be corrected until ${deadline} (the deadline for a credit note under section 34 of the CGST Act); please contact us.`,
  done: (creditNote: string, invoice: string) =>
    `Credit note ${creditNote} cancels your invoice and invoice ${invoice} has your new details; both are on their way by email.`,
} as const;

export const billingCorrectionSchema = z
  .strictObject({
    gstin: z
      .preprocess(
        (value) => (value === null ? undefined : value),
        singleLineText(MAX_LENGTH.gstin).optional().default(''),
      )
      .transform(normaliseGstin),
    address: multiLineText(MAX_LENGTH.billingAddress).pipe(
      z.string().trim().min(1, { error: BILLING_MESSAGES.addressRequired }),
    ),
    state: singleLineText(MAX_LENGTH.billingState).pipe(
      z.string().trim().min(1, { error: BILLING_MESSAGES.stateRequired }),
    ),
  })
  .superRefine((body, check) => {
    const state = findIndianState(body.state);
    if (!state) check.addIssue({ code: 'custom', path: ['state'], message: BILLING_MESSAGES.stateUnknown });
    const problem = body.gstin ? gstinProblem(body.gstin) : null;
    if (problem) check.addIssue({ code: 'custom', path: ['gstin'], message: problem });
    else if (body.gstin && state && state.gstCode !== body.gstin.slice(0, 2))
      check.addIssue({ code: 'custom', path: ['gstin'], message: BILLING_MESSAGES.gstinStateMismatch });
  });
export type BillingCorrectionInput = z.input<typeof billingCorrectionSchema>;

/** What the correction answers: the two documents it issued, and a sentence for the buyer. */
export const billingCorrectionAnswerSchema = z.object({
  message: z.string(),
  creditNote: z.object({ number: z.string() }),
  invoice: z.object({ number: z.string() }),
});
export type BillingCorrectionAnswer = z.infer<typeof billingCorrectionAnswerSchema>;
