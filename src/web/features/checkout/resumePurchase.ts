import { useEffect, useRef } from 'react';
import type { Currency } from '../../../shared/constants';
import type { Tool } from '../../../shared/shop';
import {
  forgetPurchase,
  rememberBillingDraft,
  rememberPurchase,
  storedBillingDraft,
  takePurchase,
} from '../../lib/purchase-intent';
import { useAuth } from '../../session/AuthContext';

/*
 * The catalogue's two ways into a purchase it did not start on this page load, apart from the storage they read
 * (./intent.ts), which My Tools shares: My Tools remembers a purchase, only the catalogue carries one on.
 */

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
