import { useState } from 'react';
import type { AdminLicense } from '../../../shared/dashboard';
import { SUSPENSION_REASON_MAX } from '../../../shared/licenses';
import { Button, FormError, useForm } from '../../components/form';
import { dashboardApi, problem } from './api';
import { DangerForm, ReasonField } from './DangerForm';
import { Card, formatDateTime, StatusBadge } from './ui';
import { useRowAction } from './useRowAction';

const SUSPEND_FIELDS = ['reason'] as const;

/** Suspend: a reason the buyer will read, and a second, explicit click. */
function SuspendForm({
  license,
  onDone,
  onCancel,
}: {
  license: AdminLicense;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const form = useForm({
    initial: { reason: '' },
    fields: SUSPEND_FIELDS,
    idOf: (field) => `suspend-${license.id}-${field}`,
  });
  const submit = form.submit({
    send: async (values) => onDone((await dashboardApi.suspendLicense(license.id, values)).message),
    explain: (failure, onFields) => (onFields ? null : problem(failure)),
  });
  return (
    <DangerForm
      label={`Suspend the license for ${license.toolName}`}
      warning={
        <>
          Every machine answers SUSPENDED at its next check, updates and downloads stop
          {license.seats > 1 ? ', the team’s members lose their seats with it' : ''}, and the buyer is emailed
          the reason. Reinstate undoes it.
        </>
      }
      onSubmit={submit}
      form={form}
      submitLabel="Suspend license"
      onCancel={onCancel}
    >
      <ReasonField
        {...form.field('reason')}
        label="Reason (the buyer reads it)"
        maxLength={SUSPENSION_REASON_MAX}
      />
    </DangerForm>
  );
}

/**
 * Licenses with the machines they run on (key masked but for its last 4 characters): free one machine, give the
 * buyer back their self-service allowance, suspend a license with a reason or reinstate it. `onChanged` reloads the
 * screen after an action.
 */
export function LicensesPanel({
  licenses,
  onChanged,
}: {
  licenses: AdminLicense[];
  onChanged: (message: string) => void;
}) {
  const { busy, error, run } = useRowAction();
  const [suspending, setSuspending] = useState<string | null>(null);
  const act = (id: string, action: () => Promise<{ message: string }>) =>
    run(id, async () => onChanged((await action()).message));
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
              {license.status === 'suspended' && (
                <p className="text-red-800">
                  {license.suspendedReason
                    ? `Suspended: ${license.suspendedReason}`
                    : 'Suspended by an open payment dispute: its outcome decides.'}
                </p>
              )}
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  busy={busy === license.id}
                  onClick={() => act(license.id, () => dashboardApi.resetDeactivations(license.id))}
                >
                  Reset self-service limits
                </Button>
                {license.status === 'active' && suspending !== license.id && (
                  <Button variant="secondary" onClick={() => setSuspending(license.id)}>
                    Suspend…
                  </Button>
                )}
                {license.status === 'suspended' && license.suspendedReason && (
                  <Button
                    variant="secondary"
                    busy={busy === `reinstate-${license.id}`}
                    onClick={() =>
                      act(`reinstate-${license.id}`, () => dashboardApi.reinstateLicense(license.id))
                    }
                  >
                    Reinstate
                  </Button>
                )}
              </div>
              {suspending === license.id && (
                <SuspendForm
                  license={license}
                  onCancel={() => setSuspending(null)}
                  onDone={(message) => {
                    setSuspending(null);
                    onChanged(message);
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError message={error} />
    </Card>
  );
}
