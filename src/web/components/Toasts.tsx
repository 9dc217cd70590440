import 'react-toastify/dist/ReactToastify.css';
import { ToastContainer } from 'react-toastify';
import { TOAST_AUTO_CLOSE_MS, TOAST_DRAG_PERCENT } from '../../shared/constants';

export { toast } from 'react-toastify';

/** Spec §9 toasts: top-right, auto-close 5000 ms, light theme, drag to dismiss at 80 %, Alt+T focuses them. */
export function Toasts() {
  return (
    <ToastContainer
      position="top-right"
      autoClose={TOAST_AUTO_CLOSE_MS}
      theme="light"
      draggablePercent={TOAST_DRAG_PERCENT * 100}
      hotKeys={(event) => event.altKey && event.code === 'KeyT'}
    />
  );
}
