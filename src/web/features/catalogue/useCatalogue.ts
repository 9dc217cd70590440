import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { Currency } from '../../../shared/constants';
import { detectCurrency } from '../../../shared/currency';
import type { Tool } from '../../../shared/shop';
import { chosenCurrency, rememberCurrency } from '../../lib/purchase-intent';
import { shopApi } from '../../lib/shop-api';
import { useAuth } from '../../session/AuthContext';

/**
 * The catalogue's data (docs/product.md §4): the tool list, loaded again when the signed-in visitor changes, and
 * the starting currency from location detection, which a choice the visitor already made overrides.
 */
export function useCatalogue() {
  const { loggedIn, checked } = useAuth();
  const [tools, setTools] = useState<Tool[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [currency, setCurrency] = useState<Currency | null>(null);
  /** The detected country's code: the checkout dialog, loaded on intent, looks up its name (decision 052). */
  const [countryCode, setCountryCode] = useState<string | undefined>();

  const loadTools = useCallback(
    () =>
      shopApi.tools().then(
        (list) => {
          // Drawing the whole catalogue can take a slow phone a while: as a transition, React yields meanwhile.
          startTransition(() => {
            setTools(list);
            setLoadFailed(false);
          });
        },
        (error: unknown) => {
          console.error('Failed to load tools', error);
          setLoadFailed(true);
        },
      ),
    [],
  );

  useEffect(() => {
    void loadTools();
  }, [loadTools]);

  useEffect(() => {
    let active = true;
    void detectCurrency(shopApi.location).then((location) => {
      if (!active) return;
      // A choice the visitor made (on this page, or before signing up or in reloaded it) wins over the detected one.
      setCurrency((current) => current ?? chosenCurrency() ?? location.currency);
      setCountryCode(location.country);
    });
    return () => {
      active = false;
    };
  }, []);

  // "Purchased" depends on who is signed in: when the session changes under the page (the 5 s poll sees a
  // sign-out in another tab), ask again.
  const seenLoggedIn = useRef<boolean | null>(null);
  useEffect(() => {
    if (!checked) return;
    if (seenLoggedIn.current !== null && seenLoggedIn.current !== loggedIn) void loadTools();
    seenLoggedIn.current = loggedIn;
  }, [checked, loggedIn, loadTools]);

  const markPurchased = useCallback((toolId: string) => {
    setTools(
      (list) => list?.map((tool) => (tool._id === toolId ? { ...tool, purchased: true } : tool)) ?? null,
    );
  }, []);
  const markTrialStarted = useCallback((toolId: string, trialEndsAt: string) => {
    setTools(
      (list) =>
        list?.map((tool) => (tool._id === toolId ? { ...tool, trialStarted: true, trialEndsAt } : tool)) ??
        null,
    );
  }, []);
  const chooseCurrency = useCallback((next: Currency) => {
    rememberCurrency(next);
    setCurrency(next);
  }, []);
  return {
    tools,
    loadFailed,
    currency,
    setCurrency: chooseCurrency,
    countryCode,
    markPurchased,
    markTrialStarted,
  };
}

export type Catalogue = ReturnType<typeof useCatalogue>;
