import { CURRENCIES, type Currency } from '../../shared/constants';

/**
 * What a buyer was doing, kept for this tab across the page loads that signing up or in causes (docs/product.md §4:
 * both reload the page): the tool they were buying and what they typed in the billing form. The currency they
 * chose is kept for later visits too (localStorage: a new tab or another day shows it again, decision 044).
 * Storage may be refused (private windows, storage off): then nothing is remembered and nothing breaks.
 */
const PURCHASE_KEY = 'shop:purchase-intent';
const CURRENCY_KEY = 'shop:currency';
const BILLING_DRAFT_KEY = 'shop:billing-draft';

type StorageKind = 'sessionStorage' | 'localStorage';

function read(key: string, kind: StorageKind = 'sessionStorage'): string | null {
  try {
    return window[kind].getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null, kind: StorageKind = 'sessionStorage'): void {
  try {
    if (value === null) window[kind].removeItem(key);
    else window[kind].setItem(key, value);
  } catch {
    // Not remembered: the buyer chooses again after the reload.
  }
}

const asCurrency = (value: unknown): Currency | null =>
  CURRENCIES.find((currency) => currency === value) ?? null;

/** The currency the buyer chose with the toggle, which wins over the detected one. */
export const chosenCurrency = (): Currency | null => asCurrency(read(CURRENCY_KEY, 'localStorage'));
export const rememberCurrency = (currency: Currency) => write(CURRENCY_KEY, currency, 'localStorage');

/** What the buyer typed in the form, kept by the page so a second attempt starts from it; with the coupon code. */
export type BillingDraft = {
  address: string;
  state: string;
  country: string;
  gstin: string;
  couponCode?: string;
  /** The number of seats as typed ("5"); absent: one. */
  seats?: string;
  /** The edition chosen, of a tool with editions (kept while the page is open, not across a reload). */
  editionId?: string;
};

/** The billing form as last typed in this tab, with its coupon code and the tool that code was for. */
export type StoredBillingDraft = BillingDraft & { couponFor?: string };

export function storedBillingDraft(): StoredBillingDraft | undefined {
  try {
    const parsed = JSON.parse(read(BILLING_DRAFT_KEY) ?? 'null') as Partial<StoredBillingDraft> | null;
    if (!parsed || typeof parsed !== 'object') return undefined;
    const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 500) : '');
    return {
      address: text(parsed.address),
      state: text(parsed.state),
      country: text(parsed.country),
      gstin: text(parsed.gstin),
      couponCode: text(parsed.couponCode).slice(0, 32),
      couponFor: text(parsed.couponFor),
      seats: text(parsed.seats).slice(0, 2),
    };
  } catch {
    return undefined;
  }
}

export const rememberBillingDraft = (draft: StoredBillingDraft) =>
  write(BILLING_DRAFT_KEY, JSON.stringify(draft));

/**
 * A paid order's billing details were corrected (an Indian GSTIN and address): the next checkout in this tab starts
 * from them, not from what was typed before (issue 63); the coupon and seats typed stay. The caller names the
 * country, so that this file, which every shop page loads, does not bring the billing rules and their country list.
 */
export function rememberCorrectedBilling(corrected: {
  address: string;
  state: string;
  gstin: string;
  country: string;
}): void {
  rememberBillingDraft({ ...storedBillingDraft(), ...corrected });
}

/**
 * A signed-out buyer pressed Buy: carried on once they are signed in. From My Tools (a trial's "Buy now") the
 * currency is left to the catalogue: null.
 */
export function rememberPurchase(toolId: string, currency: Currency | null): void {
  write(PURCHASE_KEY, JSON.stringify({ toolId, currency }));
}

export const forgetPurchase = () => write(PURCHASE_KEY, null);

/** The purchase to carry on with, once (it is forgotten as it is read). */
export function takePurchase(): { toolId: string; currency: Currency | null } | null {
  const stored = read(PURCHASE_KEY);
  if (!stored) return null;
  write(PURCHASE_KEY, null);
  try {
    const parsed = JSON.parse(stored) as { toolId?: unknown; currency?: unknown };
    const currency = asCurrency(parsed.currency);
    return typeof parsed.toolId === 'string' && (currency || parsed.currency === null)
      ? { toolId: parsed.toolId, currency }
      : null;
  } catch {
    return null;
  }
}
