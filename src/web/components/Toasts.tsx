import 'react-toastify/dist/ReactToastify.css';
import { useEffect } from 'react';
import { ToastContainer } from 'react-toastify';
import { TOAST_AUTO_CLOSE_MS, TOAST_DRAG_PERCENT } from '../../shared/constants';

export { toast } from 'react-toastify';

/** Below the tools pages' 4 rem sticky header, so a toast never covers it or the account menu under it. */
/** Below the header, and under it (the header's z-50): the account menu it opens is never covered by a toast. */
const BELOW_HEADER = { top: 'calc(4rem + 0.75rem)', zIndex: 40 };

/**
 * Spec §9 toasts: top-right, auto-close 5000 ms, light theme, drag to dismiss at 80 %, Alt+T focuses them. They are
 * seen, not heard: what a toast says is read once through the site's one live region (ToastHost's `toast`), so
 * the container is no live region of its own and a toast is no alert.
 */
export function Toasts() {
  useEffect(() => {
    // react-toastify writes aria-live="polite" on its container and offers no prop for it.
    document.querySelector('section.Toastify')?.setAttribute('aria-live', 'off');
  }, []);
  return (
    <ToastContainer
      position="top-right"
      autoClose={TOAST_AUTO_CLOSE_MS}
      theme="light"
      role="note"
      style={BELOW_HEADER}
      draggablePercent={TOAST_DRAG_PERCENT * 100}
      hotKeys={(event) => event.altKey && event.code === 'KeyT'}
    />
  );
}
