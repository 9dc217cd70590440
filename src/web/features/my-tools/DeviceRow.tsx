import { FileDown, LoaderCircle, MonitorX } from 'lucide';
import { useEffect, useRef, useState } from 'react';
import { LICENSE_MESSAGES, type MyDevice } from '../../../shared/licenses';
import {
  busyButtonProps,
  dangerSmallButton,
  quietSmallButton,
  SecondaryButton,
  smallButton,
} from '../../components/form/buttons';
import { Icon } from '../../components/Icon';
import { formatDate } from '../../lib/dates';
import { myToolsApi } from './api';
import { OfflineDisclosure } from './OfflineActions';

/**
 * One machine a license runs on: when it was activated and last seen, its license file, and Deactivate. A computer
 * activated without internet shows when its response file ends instead, and takes its deactivation code.
 */
export function DeviceRow({
  device,
  licenseId,
  deactivationsLeft,
  deactivating,
  onDeactivate,
  onFreedWithCode,
  canDownload,
}: {
  device: MyDevice;
  licenseId: string;
  deactivationsLeft: number;
  deactivating: boolean;
  onDeactivate: () => void;
  onFreedWithCode: () => void;
  canDownload: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const name = device.name ?? 'Unnamed device';
  const deactivateRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLFieldSetElement>(null);
  // The confirmation takes the place of Deactivate: focus goes into it (to Cancel, the safe choice), and back to
  // Deactivate when it goes.
  const wasConfirming = useRef(false);
  useEffect(() => {
    if (confirming) confirmRef.current?.querySelector<HTMLElement>('[data-cancel]')?.focus();
    else if (wasConfirming.current) deactivateRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  return (
    <li className="py-3 first:pt-0 last:pb-0">
      <p className="truncate text-sm font-semibold text-slate-900">{name}</p>
      <p className="mt-0.5 text-xs text-slate-600">Activated {formatDate(device.activatedAt)}</p>
      {device.offlineUntil ? (
        <p className="text-xs text-slate-600">
          Offline · its license file works until {formatDate(device.offlineUntil)}
        </p>
      ) : (
        <p className="text-xs text-slate-600">Last seen {formatDate(device.lastSeenAt, 'dayAndTime')}</p>
      )}
      <div className="mt-2 flex flex-wrap gap-2">
        {device.offlineUntil && (
          <OfflineDisclosure
            label="Enter deactivation code"
            ariaLabel={`Enter the deactivation code of ${name}`}
            form={{ kind: 'code', licenseId, deviceName: name, onDone: onFreedWithCode }}
          />
        )}
        {/* A computer without internet has its response file; a new one is a new request. */}
        {canDownload && !device.offlineUntil && (
          <a
            href={myToolsApi.licenseFileUrl(device.id)}
            download
            aria-label={`Download license file for ${name}`}
            className={quietSmallButton}
          >
            <Icon node={FileDown} className="size-4" />
            Download license file
          </a>
        )}
        {!confirming && (
          <button
            ref={deactivateRef}
            type="button"
            aria-label={`Deactivate ${name}`}
            {...busyButtonProps(deactivating, () => setConfirming(true))}
            className={dangerSmallButton}
          >
            {deactivating ? (
              <Icon node={LoaderCircle} className="size-4 animate-spin motion-reduce:animate-none" />
            ) : (
              <Icon node={MonitorX} className="size-4" />
            )}
            {deactivating ? 'Deactivating...' : 'Deactivate'}
          </button>
        )}
      </div>
      {confirming && (
        <fieldset
          ref={confirmRef}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.preventDefault();
            setConfirming(false);
          }}
          className="mt-3 min-w-0 rounded-lg border border-red-200 bg-red-50 p-3"
        >
          <legend className="sr-only">Deactivate {name}?</legend>
          {deactivationsLeft > 0 ? (
            <>
              <p className="text-sm text-red-900">
                Free this device's seat? The tool on it stops working until it is activated again. You can
                deactivate {deactivationsLeft === 1 ? '1 more device' : `${deactivationsLeft} more devices`}{' '}
                yourself in the next 30 days.
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <button
                  type="button"
                  onClick={() => {
                    setConfirming(false);
                    onDeactivate();
                  }}
                  className={`${smallButton} border-red-700 bg-red-700 text-white hover:bg-red-800`}
                >
                  Yes, deactivate
                </button>
                <SecondaryButton cancel onClick={() => setConfirming(false)}>
                  Cancel
                </SecondaryButton>
              </div>
            </>
          ) : (
            <>
              <p className="text-sm text-red-900">{LICENSE_MESSAGES.selfDeactivationLimit}</p>
              <div className="mt-3">
                <SecondaryButton cancel onClick={() => setConfirming(false)}>
                  Close
                </SecondaryButton>
              </div>
            </>
          )}
        </fieldset>
      )}
    </li>
  );
}
