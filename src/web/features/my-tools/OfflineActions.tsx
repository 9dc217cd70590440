import { KeyRound, WifiOff } from 'lucide';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { quietSmallButton } from '../../components/form/buttons';
import { Icon } from '../../components/Icon';
import type { OfflineFormProps } from './OfflineForms';

/**
 * The buttons for computers without internet (issue 67): "Activate a computer without internet" under a license's
 * devices, and "Enter deactivation code" on a computer activated so. Each opens its form in place, loaded then
 * (OfflineForms.tsx), so My Tools' own load carries none of it (decision 052); pointing at or focusing a button
 * fetches it ahead of the press. Closing a form returns focus to its button.
 */
const loadForm = () => import('./OfflineForms');
const OfflineForm = lazy(loadForm);

type FormOf<P> = P extends unknown ? Omit<P, 'onClose'> : never;

export function OfflineDisclosure({
  label,
  ariaLabel,
  form,
}: {
  label: string;
  ariaLabel?: string;
  form: FormOf<OfflineFormProps>;
}) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const regionId = useId();
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-label={ariaLabel}
        aria-expanded={open}
        aria-controls={open ? regionId : undefined}
        onPointerEnter={() => void loadForm()}
        onFocus={() => void loadForm()}
        onClick={() => setOpen(!open)}
        className={quietSmallButton}
      >
        <Icon node={form.kind === 'activate' ? WifiOff : KeyRound} className="size-4" />
        {label}
      </button>
      {open && (
        <div id={regionId} className="w-full">
          <Suspense fallback={<p className="mt-3 text-sm text-slate-600">Loading...</p>}>
            <OfflineForm {...form} onClose={close} />
          </Suspense>
        </div>
      )}
    </>
  );
}
