import { type ReactNode, useEffect, useId, useRef } from 'react';
import { focusLost, focusOrFallback } from '../lib/announce';

type ModalProps = {
  open: boolean;
  onClose: () => void;
  /** The visible title; it also names the dialog for assistive technology. */
  title: ReactNode;
  children: ReactNode;
  /** Extra classes for the panel (width, padding). */
  className?: string;
  /** Where focus goes on close when what opened the dialog is gone (the dialog was opened by the page itself). */
  returnFocus?: () => HTMLElement | null;
  /** A line under the title that says why the dialog is open; read with its name when focus moves in. */
  description?: string;
};

/**
 * What opened each open dialog. A dialog opened from inside another (Login's "Sign up" link) inherits the first
 * one's opener, since the link goes with the dialog it was in.
 */
const openers = new WeakMap<HTMLDialogElement, Element | null>();

function rememberOpener(dialog: HTMLDialogElement) {
  const active = document.activeElement;
  const outer = active?.closest('dialog');
  openers.set(dialog, outer && openers.has(outer) ? (openers.get(outer) ?? null) : active);
}

/**
 * The site's one dialog, on the native <dialog> element: focus moves in and goes back to what opened it on close
 * (or to `returnFocus` when that is gone), Escape and a click that starts and ends on the backdrop close it, and the
 * rest of the page is inert while it is open.
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  className = 'max-w-md',
  returnFocus,
  description,
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = `${titleId}-description`;
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  /** Whether the press that led to this click began on the backdrop (not in a field whose text was selected). */
  const pressedOnBackdrop = useRef(false);

  const returnFocusRef = useRef(returnFocus);
  returnFocusRef.current = returnFocus;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      rememberOpener(dialog);
      dialog.showModal();
    }
    if (!open && dialog.open) {
      // Focus that has already moved on (to the payment window this dialog led to) stays where it is.
      const hadFocus = focusLost() || dialog.contains(document.activeElement);
      dialog.close();
      const opener = openers.get(dialog);
      if (hadFocus) focusOrFallback(opener as HTMLElement | null, () => returnFocusRef.current?.() ?? null);
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onCancel = (event: Event) => {
      event.preventDefault();
      closeRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => dialog.removeEventListener('cancel', onCancel);
  }, []);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard way out is Escape, handled by the dialog's cancel event.
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={open && description ? descriptionId : undefined}
      className={`m-auto w-[calc(100%-2rem)] rounded-2xl bg-white p-0 text-slate-800 shadow-2xl backdrop:bg-slate-900/60 ${className}`}
      onPointerDown={(event) => {
        pressedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        // A click whose target is the <dialog> itself landed on the backdrop, outside the panel. It only closes
        // when the press began there too: selecting text in a field and letting go outside is not a close.
        const onBackdrop = pressedOnBackdrop.current && event.target === event.currentTarget;
        pressedOnBackdrop.current = false;
        if (onBackdrop) onClose();
      }}
    >
      {open && (
        <div className="p-6 sm:p-8">
          <h2 id={titleId} className="mb-5 text-xl font-semibold text-brand-900">
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="-mt-3 mb-4 text-sm text-slate-600">
              {description}
            </p>
          )}
          {children}
        </div>
      )}
    </dialog>
  );
}
