import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';

/**
 * One toast container for the whole app, mounted once a page that shows toasts asks for it and kept from then on.
 * A container inside each page would be unmounted by a route change, taking its toasts with it — the payment
 * toasts must last their full 5 s across the move from /utility-tools to /my-tools (docs/product.md §4, §9).
 * Pages without toasts (the home page) never load react-toastify.
 */
const Toasts = lazy(() => import('./Toasts').then((module) => ({ default: module.Toasts })));

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
