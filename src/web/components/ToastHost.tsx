import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';

/**
 * One toast container for the whole app, mounted once a page that shows toasts asks for it and kept from then on.
 * A container inside each page would be unmounted by a route change, taking its toasts with it — the payment
 * toasts must last their full 5 s across the move from /utility-tools to /my-tools (docs/product.md §4, §9).
 * Pages without toasts (the home page) never load react-toastify.
 */
const loadToasts = () => import('./Toasts');
const Toasts = lazy(() => loadToasts().then((module) => ({ default: module.Toasts })));

/**
 * Shows a toast. react-toastify is loaded on first use (or when the container mounts), not with the page's own
 * code: a page that shows toasts paints its first frame without it (decision 022). Toasts keep their order, since
 * the module promise settles once.
 */
const show =
  (kind: 'success' | 'warning' | 'error') =>
  (message: string): void => {
    loadToasts().then(
      (module) => module.toast[kind](message),
      (error: unknown) => console.error('Could not load the toasts to show:', message, error),
    );
  };
export const toast = { success: show('success'), warning: show('warning'), error: show('error') };

let wanted = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Called by a page that shows toasts: mounts the app's container if it is not there yet. */
export function useToasts(): void {
  useEffect(() => {
    if (wanted) return;
    wanted = true;
    for (const listener of listeners) listener();
  }, []);
}

export function ToastHost() {
  const show = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  return show ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}
