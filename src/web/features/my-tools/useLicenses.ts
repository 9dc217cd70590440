import { useCallback, useState } from 'react';
import type { MyLicense } from '../../../shared/licenses';
import { toast } from '../../components/ToastHost';
import { ApiError } from '../../lib/api';
import { useQuery } from '../../lib/useQuery';
import { myToolsApi } from './api';

export const LICENSE_UI_MESSAGES = {
  deactivateFailed: 'Could not deactivate the device. Please try again.',
} as const;

export type LicensesState = {
  /** undefined while loading or when loading failed. */
  licenseFor: (toolId: string) => MyLicense | undefined;
  isDeactivating: (deviceId: string) => boolean;
  deactivate: (deviceId: string) => void;
  /** Reads the licenses again (an upgrade or a renewal was paid, a computer activated or freed without internet). */
  reload: () => void;
};

/**
 * The buyer's licenses with their devices, loaded once My Tools knows someone is signed in. Deactivating a
 * device reloads the list, so the seat count and the remaining self-service deactivations come from the server.
 * A 401 means the session ended: My Tools itself sends the visitor away.
 */
export function useLicenses(enabled: boolean): LicensesState {
  const licenses = useQuery(enabled ? 'my-licenses' : null, myToolsApi.myLicenses);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const { reload } = licenses;

  const deactivate = useCallback(
    (deviceId: string) => {
      setBusy((current) => new Set(current).add(deviceId));
      myToolsApi
        .deactivateDevice(deviceId)
        .then(
          (response) => {
            toast.success(response.message);
            return reload();
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
    [reload],
  );

  return {
    licenseFor: (toolId) => licenses.data?.find((license) => license.toolId === toolId),
    isDeactivating: (deviceId) => busy.has(deviceId),
    deactivate,
    reload: () => void reload(),
  };
}
