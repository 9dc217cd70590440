import { useEffect, useRef } from 'react';
import { CURRENCIES, type Currency } from '../../../shared/constants';
import type { Tool } from '../../../shared/shop';
import { useAuth } from '../../session/AuthContext';
import type { BillingDraft } from './BillingModal';

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

/**
 * Carries on with a purchase started signed out, on the page load after signing up or in: the same tool's billing
 * form, in the currency chosen then. Only a page that loads signed in does it (signing up shows its success for 2 s
 * before the reload), and closing the Login or Signup dialog without signing in gives the purchase up.
 */
export function usePurchaseIntent({
  tools,
  currency,
  setCurrency,
  openBilling,
}: {
  tools: Tool[] | null;
  currency: Currency | null;
  setCurrency: (currency: Currency) => void;
  openBilling: (tool: Tool) => void;
}): void {
  const { loggedIn, checked, signingIn } = useAuth();
  const wasSigningIn = useRef(false);
  useEffect(() => {
    if (wasSigningIn.current && !signingIn && !loggedIn) forgetPurchase();
    wasSigningIn.current = signingIn;
  }, [signingIn, loggedIn]);

  const signedInAtLoad = useRef<boolean | null>(null);
  useEffect(() => {
    if (checked && signedInAtLoad.current === null) signedInAtLoad.current = loggedIn;
    if (!signedInAtLoad.current || !tools || !currency) return;
    const intent = takePurchase();
    const tool = intent && tools.find((candidate) => candidate._id === intent.toolId);
    if (!intent || !tool || tool.purchased || tool.comingSoon) return;
    if (intent.currency) setCurrency(intent.currency);
    openBilling(tool);
  }, [checked, loggedIn, tools, currency, setCurrency, openBilling]);
}

/**
 * `/utility-tools?checkout=<toolId>&coupon=CODE` (the checkout reminder emails link there): a signed-in buyer gets
 * that tool's billing form with the code filled in and applied; a signed-out one the login dialog, and the same
 * form once signed in. The parameters are taken off the address once read, so a reload does not reopen it.
 */
export function useCheckoutLink({
  tools,
  currency,
  openBilling,
  openLogin,
}: {
  tools: Tool[] | null;
  currency: Currency | null;
  openBilling: (tool: Tool, couponCode: string | null) => void;
  openLogin: () => void;
}): void {
  const { loggedIn, checked } = useAuth();
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !checked || !tools || !currency) return;
    const params = new URLSearchParams(window.location.search);
    const toolId = params.get('checkout');
    if (!toolId) return;
    done.current = true;
    const code = params.get('coupon')?.trim().slice(0, 32) || null;
    params.delete('checkout');
    params.delete('coupon');
    const rest = params.toString();
    window.history.replaceState(
      window.history.state,
      '',
      `${window.location.pathname}${rest ? `?${rest}` : ''}`,
    );
    const tool = tools.find((candidate) => candidate._id === toolId);
    if (!tool || tool.purchased || tool.comingSoon) return;
    if (code) {
      const draft = storedBillingDraft();
      rememberBillingDraft({
        address: draft?.address ?? '',
        state: draft?.state ?? '',
        country: draft?.country ?? '',
        gstin: draft?.gstin ?? '',
        couponCode: code,
        couponFor: tool._id,
      });
    }
    if (loggedIn) return openBilling(tool, code);
    rememberPurchase(tool._id, currency);
    openLogin();
  }, [checked, loggedIn, tools, currency, openBilling, openLogin]);
}
