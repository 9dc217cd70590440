import type { ReactNode } from 'react';
import type { Currency } from '../../../shared/constants';
import type { BillingDetails } from '../../../shared/shop';
import type { BillingDraft } from '../../lib/purchase-intent';

/** The billing form's inputs: what the page knows and what it is told. */
export type BillingFormProps = {
  /** "Add seats" (issue 54): the number of seats the buyer's team has now; the form asks how many more. */
  addSeatsTo?: number;
  /** Everything typed, as it is typed (and the applied coupon): the page keeps it for the next attempt. */
  onDraftChange?: (draft: BillingDraft) => void;
  /** The tool being bought: with it the form offers the optional coupon code (checked by the server). */
  toolId?: string;
  currency: Currency;
  /** What is being bought and for how much, shown above the form. */
  summary: ReactNode;
  /** What the buyer typed last time (a checkout they closed), to start from. */
  draft?: BillingDraft;
  /** Preselected for an international order (the detected country), when known. */
  defaultCountry?: string;
  onCancel: () => void;
  /**
   * The details as the order takes them, and as typed (to start from next time); settles once the payment has
   * started, or fails with the server's answer.
   */
  onSubmit: (billing: BillingDetails, draft: BillingDraft, order: OrderChoice) => Promise<void>;
  /**
   * Asks for a proforma invoice for the same order instead of paying now (issue 68): offered to a business buyer or
   * a team of seats when given; settles once the proforma exists, or fails with the server's answer.
   */
  onProforma?: (billing: BillingDetails, draft: BillingDraft, order: OrderChoice) => Promise<void>;
};

/**
 * What the order buys beyond the billing details: the coupon applied, the number of seats, and whether the buyer
 * deducts TDS (and under which PAN).
 */
export type OrderChoice = { couponCode?: string; seats: number; tds?: boolean; pan?: string };
