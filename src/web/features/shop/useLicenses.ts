import { useCallback, useEffect, useState } from 'react';
import type { MyLicense } from '../../../shared/licenses';
import { toast } from '../../components/ToastHost';
import { ApiError } from '../../lib/api';
import { licenseApi } from './licenseApi';

export const LICENSE_UI_MESSAGES = {
  loadFailed: 'Failed to load your license details.',
  deactivateFailed: 'Could not deactivate the device. Please try again.',
} as const;

export type LicensesState = {
  /** undefined while loading or when loading failed. */
  licenseFor: (toolId: string) => MyLicense | undefined;
  loadFailed: boolean;
  isDeactivating: (deviceId: string) => boolean;
  deactivate: (deviceId: string) => void;
};

/**
 * The buyer's licenses with their devices, loaded once My Tools knows someone is signed in. Deactivating a
 * device reloads the list, so the seat count and the remaining self-service deactivations come from the server.
 */
export function useLicenses(enabled: boolean): LicensesState {
  const [licenses, setLicenses] = useState<MyLicense[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());

  const load = useCallback(
    () =>
      licenseApi.myLicenses().then(
        (list) => {
          setLicenses(list);
          setLoadFailed(false);
        },
        (error: unknown) => {
          // A 401 means the session ended: My Tools itself sends the visitor away.
          if (!(error instanceof ApiError && error.status === 401)) setLoadFailed(true);
        },
      ),
    [],
  );

  useEffect(() => {
    if (enabled) void load();
  }, [enabled, load]);

  const deactivate = useCallback(
    (deviceId: string) => {
      setBusy((current) => new Set(current).add(deviceId));
      licenseApi
        .deactivateDevice(deviceId)
        .then(
          (response) => {
            toast.success(response.message);
            return load();
          },
          (error: unknown) => {
            toast.error(
              (error instanceof ApiError && error.serverMessage) || LICENSE_UI_MESSAGES.deactivateFailed,
            );
          },
        )
        .finally(() =>
          setBusy((current) => {
            const next = new Set(current);
            next.delete(deviceId);
            return next;
          }),
        );
    },
    [load],
  );

  return {
    licenseFor: (toolId) => licenses?.find((license) => license.toolId === toolId),
    loadFailed,
    isDeactivating: (deviceId) => busy.has(deviceId),
    deactivate,
  };
}
