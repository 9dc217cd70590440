import { useEffect } from 'react';
import type { Currency } from '../../../shared/constants';
import { Modal } from '../../components/Modal';
import { checkoutApi } from './api';
import { BillingForm } from './BillingForm';
import type { BillingFormProps } from './types';
import { loadPurchaseFlow } from './usePurchase';

export function billingTitle(currency: Currency): string {
  return currency === 'INR' ? 'Billing Information' : 'Billing Information (International Order)';
}

/**
 * The billing details asked before payment (docs/product.md §2, §5). INR orders: address, state, India, optional
 * GSTIN. Other currencies: the country only. Closes on Cancel, Escape or a click on the backdrop.
 */
export function BillingModal({
  open,
  returnFocus,
  ...form
}: BillingFormProps & {
  open: boolean;
  /** Where focus goes on close when the page opened the dialog itself (a purchase carried on after signing in). */
  returnFocus?: () => HTMLElement | null;
}) {
  const { currency, toolId, onCancel } = form;
  useEffect(() => {
    // Fire and forget (checkout recovery): the dialog works the same whether or not the server remembered it.
    if (open && toolId) checkoutApi.checkoutOpened({ toolId }).catch(() => undefined);
  }, [open, toolId]);
  useEffect(() => {
    // The purchase's code comes while the buyer fills the form, so Proceed to Payment does not wait for it.
    if (open) loadPurchaseFlow().catch(() => undefined);
  }, [open]);
  return (
    <Modal
      open={open}
      onClose={onCancel}
      title={billingTitle(currency)}
      className="max-w-lg"
      returnFocus={returnFocus}
    >
      <BillingForm {...form} />
    </Modal>
  );
}
