import { useState } from 'react';
import type { AdminLicense } from '../../../shared/dashboard';
import { Button, FormError } from '../../components/form';
import { dashboardApi, problem } from './api';
import { Card, formatDateTime, StatusBadge } from './ui';

/**
 * Licenses with the machines they run on (key masked but for its last 4 characters): free one machine, or give the
 * buyer back their self-service allowance. `onChanged` reloads the screen after an action.
 */
export function LicensesPanel({
  licenses,
  onChanged,
}: {
  licenses: AdminLicense[];
  onChanged: (message: string) => void;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const act = async (id: string, action: () => Promise<{ message: string }>) => {
    setBusy(id);
    setError(null);
    try {
      onChanged((await action()).message);
    } catch (failure) {
      setError(problem(failure));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card title="License and devices">
      {licenses.length === 0 ? (
        <p className="text-sm text-slate-600">No license.</p>
      ) : (
        <ul className="space-y-4">
          {licenses.map((license) => (
            <li key={license.id} className="space-y-2 text-sm">
              <p className="flex flex-wrap items-center gap-2">
                <StatusBadge status={license.status} />
                <span className="font-medium text-slate-900">{license.toolName}</span>
              </p>
              <p className="text-slate-700">
                {license.maskedKey ? (
                  <>
                    Key <code className="font-mono text-xs">{license.maskedKey}</code>
                  </>
                ) : (
                  <>Username {license.username}</>
                )}
              </p>
              <p className="text-slate-700">
                {license.devices.length} of {license.activationLimit} machines in use ·{' '}
                {license.selfDeactivationsLeft} self-service deactivations left
              </p>
              {license.devices.length > 0 && (
                <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
                  {license.devices.map((device) => (
                    <li
                      key={device.id}
                      className="flex flex-wrap items-center justify-between gap-2 px-3 py-2"
                    >
                      <span>
                        <span className="font-medium text-slate-900">{device.name ?? 'Unnamed machine'}</span>
                        <span className="block text-slate-600">
                          Last seen {formatDateTime(device.lastSeenAt)}
                        </span>
                        {device.offlineUntil && (
                          // Nothing decided here (a refund, a suspension) reaches it before its file ends.
                          <span className="block text-slate-600">
                            Activated without internet · its license file works until{' '}
                            {formatDateTime(device.offlineUntil)}
                          </span>
                        )}
                      </span>
                      <Button
                        variant="secondary"
                        busy={busy === device.id}
                        aria-label={`Deactivate ${device.name ?? 'this machine'}`}
                        onClick={() =>
                          act(device.id, () => dashboardApi.deactivateDevice(license.id, device.id))
                        }
                      >
                        Deactivate
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
              <Button
                variant="secondary"
                busy={busy === license.id}
                onClick={() => act(license.id, () => dashboardApi.resetDeactivations(license.id))}
              >
                Reset self-service limits
              </Button>
            </li>
          ))}
        </ul>
      )}
      <FormError message={error} />
    </Card>
  );
}
