import { useEffect, useRef } from 'react';
import { CURRENCIES, type Currency } from '../../../shared/constants';
import type { Tool } from '../../../shared/shop';
import { useAuth } from '../../session/AuthContext';

/**
 * What a buyer was doing, kept for this tab across the page loads that signing up or in causes (docs/product.md §4:
 * both reload the page): the tool they were buying and the currency they chose. sessionStorage may be refused
 * (private windows, storage off): then nothing is remembered and nothing breaks.
 */
const PURCHASE_KEY = 'shop:purchase-intent';
const CURRENCY_KEY = 'shop:currency';

function read(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, value);
  } catch {
    // Not remembered: the buyer chooses again after the reload.
  }
}

const asCurrency = (value: unknown): Currency | null =>
  CURRENCIES.find((currency) => currency === value) ?? null;

/** The currency the buyer chose with the toggle, which wins over the detected one. */
export const chosenCurrency = (): Currency | null => asCurrency(read(CURRENCY_KEY));
export const rememberCurrency = (currency: Currency) => write(CURRENCY_KEY, currency);

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
