import { useEffect, useState } from 'react';
import type { CreatePaymentResponse, PaymentsConfigResponse } from '../../../shared/shop';
import { checkoutApi } from './api';

/** What Razorpay Standard Checkout hands the success handler; the server checks the signature. */
export type RazorpaySuccess = {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
};

export type RazorpayFailure = {
  error: { code?: string; description: string; source?: string; step?: string; reason?: string };
};

export type RazorpayOptions = {
  key: string;
  amount: number;
  currency: CreatePaymentResponse['currency'];
  order_id: string;
  name: string;
  description: string;
  prefill: { name: string; email: string; contact: string };
  theme: { color: string };
  handler: (response: RazorpaySuccess) => void;
  modal: { ondismiss: () => void };
};

export type RazorpayCheckout = {
  open(): void;
  on(event: 'payment.failed', handler: (response: RazorpayFailure) => void): void;
};

export type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayCheckout;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

let configLoading: Promise<PaymentsConfigResponse> | undefined;
let scriptLoading: Promise<RazorpayConstructor> | undefined;

/** Remembers a pending or fulfilled promise; a rejected one is forgotten so the next call tries again. */
function retryable<T>(start: () => Promise<T>, forget: () => void): Promise<T> {
  return start().catch((error: unknown) => {
    forget();
    throw error;
  });
}

function paymentsConfig(): Promise<PaymentsConfigResponse> {
  configLoading ??= retryable(checkoutApi.paymentsConfig, () => {
    configLoading = undefined;
  });
  return configLoading;
}

function injectScript(src: string): Promise<RazorpayConstructor> {
  return new Promise((resolve, reject) => {
    if (window.Razorpay) return resolve(window.Razorpay);
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.addEventListener('load', () =>
      window.Razorpay
        ? resolve(window.Razorpay)
        : reject(new Error('the checkout script did not define Razorpay')),
    );
    script.addEventListener('error', () => {
      script.remove();
      reject(new Error(`could not load ${src}`));
    });
    document.head.append(script);
  });
}

/**
 * Asks the server which checkout script to use (Razorpay's in production, the local emulator in development) and
 * loads it once per page. A failure is forgotten, so the next attempt (a click on Proceed to Payment) tries again.
 */
export function loadCheckout(): Promise<RazorpayConstructor> {
  scriptLoading ??= retryable(
    () => paymentsConfig().then((config) => injectScript(config.checkoutScript)),
    () => {
      scriptLoading = undefined;
    },
  );
  return scriptLoading;
}

/**
 * Starts loading the checkout as soon as the tools page opens (docs/product.md §7), so the payment window
 * opens without a wait; reports whether payments are simulated (null until the server has said; false if it
 * could not).
 */
export function useCheckout(): { testMode: boolean | null; ready: () => Promise<RazorpayConstructor> } {
  const [testMode, setTestMode] = useState<boolean | null>(null);
  useEffect(() => {
    let active = true;
    paymentsConfig().then(
      (config) => {
        if (active) setTestMode(config.testMode);
      },
      () => {
        if (active) setTestMode(false);
      },
    );
    // The script (Razorpay's is large) waits for the browser to be idle, so it never competes with the page's
    // own first render; a click on Proceed to Payment before then loads it at once. A failed early load is only a
    // warning: the click tries again and, if it still fails, tells the buyer with the documented error toast.
    const load = () =>
      loadCheckout().catch((error: unknown) => console.warn('Could not preload the payment checkout', error));
    const idle = typeof window.requestIdleCallback === 'function';
    const handle = idle ? window.requestIdleCallback(load, { timeout: 3000 }) : window.setTimeout(load, 500);
    return () => {
      active = false;
      if (idle) window.cancelIdleCallback(handle);
      else window.clearTimeout(handle);
    };
  }, []);
  return { testMode, ready: loadCheckout };
}
