import { BILLING_COUNTRY_INDIA } from '../../shared/billing';
import type { Currency } from '../../shared/constants';
import { findIndianState, type IndianState } from '../../shared/indian-states';
import { tdsOn } from '../../shared/proforma';
import type { FirmIdentity } from '../kernel/firm';
import { type SupplyType, splitTax, supplyTypeFor, type TaxLine } from './tax';

/**
 * THE price of an order (docs/decisions/044-order-summary-and-order-page.md): the checkout's summary, the amount
 * create-payment asks Razorpay for and the tax invoice all come from this one function, so they cannot disagree.
 * Prices are tax-inclusive: list price × seats − discount is the total, and GST is worked back out of the total
 * as the place of supply asks (CGST + SGST in the firm's state, IGST in another, export otherwise).
 */

export type BillingPlace = { state?: string; country?: string };

export type OrderPrice = {
  currency: Currency;
  seats: number;
  listPrice: number;
  discount: number;
  taxableValue: number;
  taxes: TaxLine[];
  total: number;
  /** TDS the buyer deducts under s.194J (10 % of the taxable value), when it says so; else 0. */
  tds: number;
  /** What the buyer pays: the total less TDS. TDS is not a discount: the invoice shows the total. */
  amountDue: number;
  supplyType: SupplyType;
  /** The buyer's state when billed in India and known (its GST code decides the supply type). */
  buyerState: IndianState | undefined;
  country: string;
};

/** Where the supply is made, from the billing details: the country (India by default) and the Indian state. */
export function placeOfBilling(billing: BillingPlace, firm: Pick<FirmIdentity, 'state' | 'lutArn'>) {
  const country = billing.country?.trim() || BILLING_COUNTRY_INDIA;
  const billedInIndia = country === BILLING_COUNTRY_INDIA;
  const buyerState = billedInIndia && billing.state ? findIndianState(billing.state) : undefined;
  const supplyType = supplyTypeFor({
    billedInIndia,
    buyerStateCode: buyerState?.gstCode ?? null,
    firmStateCode: firm.state.gstCode,
    hasLut: Boolean(firm.lutArn),
  });
  return { country, billedInIndia, buyerState, supplyType };
}

/**
 * Prices `seats` of a tool at `unitPrice` (subunits) less `discount`, for a buyer billed at `billing`; with `tds`,
 * the buyer deducts TDS from what it pays (issue 68).
 */
export function priceOrder(input: {
  unitPrice: number;
  seats?: number;
  discount: number;
  currency: Currency;
  billing: BillingPlace;
  firm: Pick<FirmIdentity, 'state' | 'lutArn'>;
  tds?: boolean;
}): OrderPrice {
  const seats = input.seats ?? 1;
  const listPrice = input.unitPrice * seats;
  const discount = Math.min(Math.max(0, input.discount), listPrice);
  const place = placeOfBilling(input.billing, input.firm);
  const split = splitTax(listPrice - discount, place.supplyType);
  const tds = input.tds ? tdsOn(split.taxableValue) : 0;
  return {
    currency: input.currency,
    seats,
    listPrice,
    discount,
    taxableValue: split.taxableValue,
    taxes: split.taxes,
    total: split.total,
    tds,
    amountDue: split.total - tds,
    supplyType: place.supplyType,
    buyerState: place.buyerState,
    country: place.country,
  };
}

/**
 * A price's sums as the buyer reads them: the checkout's quote before paying and the order's page after show the
 * same figures under the same names, each tax line with its rate.
 */
export function buyerPriceSums(price: OrderPrice) {
  return {
    listPrice: price.listPrice,
    discount: price.discount,
    taxableValue: price.taxableValue,
    taxes: price.taxes.map((line) => ({ name: line.name, rate: line.ratePercent, amount: line.amount })),
    total: price.total,
    tds: price.tds,
    amountDue: price.amountDue,
  };
}
