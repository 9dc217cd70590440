import { lazy, Suspense, useSyncExternalStore } from 'react';
import { announce } from '../lib/announce';

/**
 * One toast container for the whole app, mounted with the first toast and kept from then on. A container inside
 * each page would be unmounted by a route change, taking its toasts with it — the payment toasts must last their
 * full 5 s across the move from /utility-tools to /my-tools (docs/product.md §4, §9). Until a toast is shown,
 * neither react-toastify nor its stylesheet is loaded: a page that has hydrated is not restyled for toasts it may
 * never show (decision 023).
 */
const loadToasts = () => import('./Toasts');
const Toasts = lazy(() => loadToasts().then((module) => ({ default: module.Toasts })));

let wanted = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

function mountContainer(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

/**
 * Shows a toast. react-toastify holds a toast shown before its container has mounted and shows it once it has, so
 * the first toast mounts the container and waits for nothing. Toasts keep their order, since the module promise
 * settles once. The message is read once, through the site's one live region (the toasts are not one); one shown
 * just before the page changes (`beforeNextPage`) is said with the next page's title after it.
 */
const show =
  (kind: 'success' | 'warning' | 'error') =>
  (message: string, options?: { beforeNextPage?: boolean }): void => {
    mountContainer();
    announce(message, options);
    loadToasts().then(
      (module) => module.toast[kind](message),
      (error: unknown) => console.error('Could not load the toasts to show:', message, error),
    );
  };
export const toast = { success: show('success'), warning: show('warning'), error: show('error') };

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
