import type { ReactNode } from 'react';
import type { Currency } from '../../../shared/constants';
import type { ToolEditionView } from '../../../shared/editions';
import type { BillingDetails } from '../../../shared/shop';
import type { BillingDraft } from '../../lib/purchase-intent';

/** The billing form's inputs: what the page knows and what it is told. */
export type BillingFormProps = {
  /** "Add seats" (issue 54): the number of seats the buyer's team has now; the form asks how many more. */
  addSeatsTo?: number;
  /** "Add seats": the team license they join, so the quote prices seats for it rather than a new license. */
  teamLicenseId?: string;
  /** Everything typed, as it is typed (and the applied coupon): the page keeps it for the next attempt. */
  onDraftChange?: (draft: BillingDraft) => void;
  /** The tool being bought: with it the form offers the optional coupon code (checked by the server). */
  toolId?: string;
  /** A tool with editions (decision 056): the buyer chooses one, the lowest to start with. */
  editions?: ToolEditionView[];
  /**
   * An upgrade or a renewal of one of the buyer's licenses. The form then asks no seats (all of the license's are
   * upgraded or renewed) and offers the coupon field as for a tool.
   */
  change?: LicenseChange;
  currency: Currency;
  /** What is being bought and for how much, shown above the form; for a tool with editions, of the one chosen. */
  summary: ReactNode | ((edition: ToolEditionView | undefined) => ReactNode);
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
 * An order that names one of the buyer's licenses rather than a tool: an upgrade to a higher edition (decision 056),
 * or a renewal of its updates for another period (decision 059). The server prices it for all the license's seats.
 */
export type LicenseChange = { upgradeLicenseId: string; editionId: string } | { renewLicenseId: string };

/** The edition an order prices: the one it upgrades to, else the one chosen. */
export const editionOf = (change: LicenseChange | undefined, chosen: string | undefined) =>
  change && 'editionId' in change ? change.editionId : chosen;

/**
 * What the order buys beyond the billing details: the coupon applied, the number of seats, the edition chosen, and
 * whether the buyer deducts TDS (and under which PAN).
 */
export type OrderChoice = {
  couponCode?: string;
  seats: number;
  editionId?: string;
  tds?: boolean;
  pan?: string;
};
