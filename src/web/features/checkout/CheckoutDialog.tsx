import type { ComponentProps } from 'react';
import { COUNTRIES } from '../../../shared/countries';
import { BillingModal } from './BillingModal';

/**
 * The catalogue's checkout (decision 052): the billing dialog with its coupon field, order summary and the country
 * list, loaded when a buyer reaches for it rather than with the page. The page knows the detected country by its
 * code only, so the country list stays out of the page's code too.
 */
export function CheckoutDialog({
  countryCode,
  ...props
}: Omit<ComponentProps<typeof BillingModal>, 'defaultCountry'> & { countryCode?: string }) {
  const defaultCountry = COUNTRIES.find((country) => country.code === countryCode)?.name;
  return <BillingModal {...props} defaultCountry={defaultCountry} />;
}
