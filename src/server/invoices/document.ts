import { BILLING_COUNTRY_INDIA } from '../../shared/billing';
import type { Currency } from '../../shared/constants';
import { TDS_RATE_PERCENT, TDS_SECTION, tdsOn } from '../../shared/proforma';
import type { FirmBank, FirmIdentity } from '../kernel/firm';
import { indiaDate } from './numbering';
import { priceOrder } from './pricing';
import { type SupplyType, splitTax, type TaxLine } from './tax';
import { amountInWords } from './words';

/** GST state code the returns use for a place of supply outside India. */
export const OTHER_COUNTRIES_CODE = '96';

/**
 * Everything a tax invoice or credit note prints (rule 46 for invoices, rule 53 for credit notes), fixed when it
 * is issued. The PDF is drawn from this alone, so a later change to the catalogue, the buyer's account or the
 * firm's settings never changes a document already issued.
 */
export type TaxDocument = {
  /** A proforma invoice (issue 68) is drawn like a tax invoice but is none: it asks for a payment. */
  kind: 'invoice' | 'credit-note' | 'proforma';
  number: string;
  /** Date of issue in India, YYYY-MM-DD. */
  date: string;
  specimen: boolean;
  supplier: { legalName: string; address: string; gstin: string; stateName: string; stateCode: string };
  buyer: {
    name: string;
    email: string;
    address: string;
    stateName: string | null;
    stateCode: string | null;
    country: string;
    gstin: string | null;
  };
  placeOfSupply: { name: string; code: string };
  /** `unitPrice`: the tax-inclusive price of one seat before a discount (absent on documents of one seat before teams). */
  item: { description: string; sac: string; sacDescription: string; quantity: number; unitPrice?: number };
  currency: Currency;
  supplyType: SupplyType;
  taxableValue: number;
  taxes: TaxLine[];
  total: number;
  totalInWords: string;
  /** Letter of undertaking of a zero-rated export. */
  lutArn: string | null;
  /** Rupees (paise) Razorpay settled for a payment in another currency. */
  settledInr: number | null;
  payment: { razorpayOrderId: string; razorpayPaymentId: string | null };
  /** The invoice a credit note corrects. */
  original: { number: string; date: string } | null;
  /** A coupon's discount, when the order had one (absent on documents issued before coupons existed). */
  discount?: DocumentDiscount | null;
  reason: string | null;
  /** A proforma's terms: until when, what is due after TDS, and how to pay it. */
  proforma?: ProformaTerms;
  /** A tax invoice of an order paid against a proforma: that proforma, the TDS deducted and the money received. */
  paidAgainst?: PaidAgainstProforma | null;
};

/** TDS the buyer deducts (s.194J): on the taxable value, under the buyer's PAN. */
export type DocumentTds = { section: string; ratePercent: number; amount: number; pan: string };

export type ProformaTerms = {
  /** The last day it can be paid, India time (YYYY-MM-DD). */
  validUntil: string;
  tds: DocumentTds | null;
  /** The total less TDS: what the payment link asks for and a transfer must cover. */
  amountDue: number;
  amountDueInWords: string;
  paymentLinkUrl: string | null;
  /** The firm's account for NEFT/RTGS (the holder is the supplier's legal name); null when none is set. */
  bank: FirmBank | null;
};

export type PaidAgainstProforma = {
  proforma: { number: string; date: string };
  tds: DocumentTds | null;
  receipts: Array<{
    method: 'payment-link' | 'bank-transfer';
    reference: string;
    amount: number;
    date: string;
  }>;
};

/**
 * Prices are tax-inclusive, so a discount is too: the buyer sees list price − discount = total, and the tax lines
 * are worked out of that total (GST is due on the value net of a discount shown on the invoice). The taxable
 * parts are the same subtraction before tax: listTaxableValue − taxableDiscount = taxableValue, to the subunit.
 */
export type DocumentDiscount = {
  code: string;
  listPrice: number;
  amount: number;
  listTaxableValue: number;
  taxableDiscount: number;
};

/** The discount block of a document whose tax split is `split`, for a list price and a coupon code. */
function documentDiscount(
  coupon: { code: string; listPrice: number } | null,
  split: { taxableValue: number; total: number; supplyType: SupplyType },
): DocumentDiscount | null {
  if (!coupon) return null;
  const listTaxableValue = splitTax(coupon.listPrice, split.supplyType).taxableValue;
  return {
    code: coupon.code,
    listPrice: coupon.listPrice,
    amount: coupon.listPrice - split.total,
    listTaxableValue,
    taxableDiscount: listTaxableValue - split.taxableValue,
  };
}

export type Billing = { address?: string; state?: string; country?: string; gstin?: string };

export type InvoiceInput = {
  firm: FirmIdentity;
  number: string;
  issuedAt: Date;
  buyer: { name: string; email: string; billing: Billing };
  itemDescription: string;
  currency: Currency;
  total: number;
  settledInr: number | null;
  payment: { razorpayOrderId: string; razorpayPaymentId: string | null };
  /** The coupon the order was priced with and its list price; `total` is the price after it. */
  coupon?: { code: string; listPrice: number } | null;
  /** Seats the order bought (decision 051); the list price is the unit price times this. */
  seats?: number;
  /** An order paid against a proforma (issue 68): printed under the totals. */
  paidAgainst?: PaidAgainstProforma | null;
};

/** Builds the snapshot of a tax invoice for a paid order. */
export function buildInvoiceDocument(input: InvoiceInput): TaxDocument {
  const { firm } = input;
  const { billing } = input.buyer;
  // The order's own price, worked out again by the one pricing function: the checkout showed these numbers.
  const seats = input.seats ?? 1;
  const listPrice = input.coupon?.listPrice ?? input.total;
  const unitPrice = listPrice / seats;
  const priced = priceOrder({
    unitPrice,
    seats,
    discount: listPrice - input.total,
    currency: input.currency,
    billing,
    firm,
  });
  const { supplyType, country, buyerState: state } = priced;
  const split = { supplyType, taxableValue: priced.taxableValue, taxes: priced.taxes, total: priced.total };
  const placeOfSupply =
    country === BILLING_COUNTRY_INDIA
      ? { name: (state ?? firm.state).name, code: (state ?? firm.state).gstCode }
      : { name: `Outside India (${country})`, code: OTHER_COUNTRIES_CODE };
  return {
    kind: 'invoice',
    number: input.number,
    date: indiaDate(input.issuedAt),
    specimen: firm.specimen,
    supplier: {
      legalName: firm.legalName,
      address: firm.address,
      gstin: firm.gstin,
      stateName: firm.state.name,
      stateCode: firm.state.gstCode,
    },
    buyer: {
      name: input.buyer.name,
      email: input.buyer.email,
      address: billing.address?.trim() ?? '',
      stateName: state?.name ?? null,
      stateCode: state?.gstCode ?? null,
      country,
      gstin: billing.gstin?.trim() || null,
    },
    placeOfSupply,
    item: {
      description: input.itemDescription,
      sac: firm.sac,
      sacDescription: firm.sacDescription,
      quantity: seats,
      ...(seats > 1 ? { unitPrice } : {}),
    },
    currency: input.currency,
    supplyType,
    taxableValue: split.taxableValue,
    taxes: split.taxes,
    total: split.total,
    totalInWords: amountInWords(split.total, input.currency),
    lutArn: supplyType === 'export-lut' ? (firm.lutArn ?? null) : null,
    settledInr: input.currency === 'INR' ? null : input.settledInr,
    payment: input.payment,
    original: null,
    reason: null,
    discount: documentDiscount(input.coupon ?? null, split),
    ...(input.paidAgainst ? { paidAgainst: input.paidAgainst } : {}),
  };
}

/**
 * Builds the snapshot of a proforma invoice (issue 68): the order's lines, tax split and total exactly as its tax
 * invoice will print them (the same function, the same pricing), with TDS worked out of the same taxable value by
 * the pricing rule, the amount due, the validity and the ways to pay.
 */
export function buildProformaDocument(
  input: Omit<InvoiceInput, 'settledInr' | 'payment' | 'paidAgainst'> & {
    validUntil: string;
    /** The buyer's PAN when it deducts TDS; null when it does not. */
    tdsPan: string | null;
    paymentLinkUrl: string | null;
  },
): TaxDocument {
  const document = buildInvoiceDocument({
    ...input,
    settledInr: null,
    payment: { razorpayOrderId: '', razorpayPaymentId: null },
  });
  const tdsAmount = input.tdsPan ? tdsOn(document.taxableValue) : 0;
  const amountDue = document.total - tdsAmount;
  return {
    ...document,
    kind: 'proforma',
    proforma: {
      validUntil: input.validUntil,
      tds: input.tdsPan
        ? { section: TDS_SECTION, ratePercent: TDS_RATE_PERCENT, amount: tdsAmount, pan: input.tdsPan }
        : null,
      amountDue,
      amountDueInWords: amountInWords(amountDue, input.currency),
      paymentLinkUrl: input.paymentLinkUrl,
      bank: input.firm.bank,
    },
  };
}

/**
 * Builds the credit note for a refund of `amount` against an invoice: the buyer, supplier and tax treatment are
 * the invoice's own (a credit note corrects that supply), the firm's current identity only names who issues it.
 */
export function buildCreditNoteDocument(input: {
  invoice: TaxDocument;
  firm: FirmIdentity;
  number: string;
  issuedAt: Date;
  amount: number;
  reason: string | null;
}): TaxDocument {
  const { invoice } = input;
  const split = splitTax(input.amount, invoice.supplyType);
  const settledInr =
    invoice.settledInr === null || invoice.total === 0
      ? null
      : Math.round((invoice.settledInr * input.amount) / invoice.total);
  return {
    ...invoice,
    kind: 'credit-note',
    number: input.number,
    date: indiaDate(input.issuedAt),
    specimen: input.firm.specimen,
    taxableValue: split.taxableValue,
    taxes: split.taxes,
    total: split.total,
    totalInWords: amountInWords(split.total, invoice.currency),
    settledInr,
    original: { number: invoice.number, date: invoice.date },
    reason: input.reason,
    // A full refund reverses the discounted supply as invoiced; a partial one is just an amount.
    discount: invoice.discount && input.amount === invoice.total ? invoice.discount : null,
    // A credit note reverses the supply; how the invoice was paid is the invoice's.
    paidAgainst: null,
  };
}
