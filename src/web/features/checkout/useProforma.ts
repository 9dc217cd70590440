import { useLocation } from 'wouter';
import type { Currency } from '../../../shared/constants';
import type { BillingDetails } from '../../../shared/shop';
import type { OrderChoice } from './types';

/**
 * "Get a proforma invoice" (issue 68): the order is made and its proforma emailed; the buyer goes to the order's
 * page, which shows it awaiting payment with the proforma, the payment link and the bank details. A refusal stays
 * with the billing form, which shows it on its fields. The request itself loads with the billing dialog's code, not
 * the page's (decision 052).
 */
export function useProforma() {
  const [, navigate] = useLocation();
  return async (
    toolId: string,
    currency: Currency,
    billing: BillingDetails,
    order: OrderChoice & { teamLicenseId?: string },
    /** Runs once the proforma exists, before the page changes (the dialog closes). */
    beforeLeave: () => void,
  ) => {
    const { requestProforma } = await import('./requestProforma');
    navigate(await requestProforma({ toolId, currency, billing, order }, beforeLeave));
  };
}
