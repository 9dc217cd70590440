import { useState } from 'react';
import { Button, FormError } from '../../components/form';
import { dashboardApi, problem } from './api';
import { Card, formatDateTime, ScreenTitle, StatusBadge, useScreenTitle } from './ui';
import { useDashboardData } from './useDashboardData';

const COUNTS = [
  { key: 'pending', label: 'Waiting' },
  { key: 'retrying', label: 'Retrying' },
  { key: 'failed', label: 'Failed' },
  { key: 'sent', label: 'Sent' },
] as const;

/** The mail outbox: counts, failed and retrying mail with the reason, and retry. */
export function MailScreen() {
  useScreenTitle('Mail');
  const { data, error, reload } = useDashboardData(dashboardApi.mail, 'mail');
  const [busy, setBusy] = useState<number | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  return (
    <>
      <ScreenTitle title="Mail" />
      <FormError message={error ?? actionError} />
      {data && (
        <div className="space-y-4">
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {COUNTS.map((count) => (
              <div key={count.key} className="rounded-xl border border-slate-200 bg-white p-4">
                <dt className="text-sm text-slate-600">{count.label}</dt>
                <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">
                  {data.counts[count.key]}
                </dd>
              </div>
            ))}
          </dl>
          <Card title="Failed and retrying mail">
            {data.problems.length === 0 ? (
              <p className="text-sm text-slate-600">Nothing is failing.</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {data.problems.map((mail) => (
                  <li key={mail.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
                    <div className="min-w-0 flex-1 text-sm">
                      <p className="flex flex-wrap items-center gap-2">
                        <StatusBadge status={mail.status === 'failed' ? 'failed' : 'pending'} />
                        <span className="font-medium text-slate-900">{mail.subject}</span>
                      </p>
                      <p className="mt-1 break-words text-slate-700">
                        To {mail.to} · {mail.kind} · {mail.attempts}{' '}
                        {mail.attempts === 1 ? 'attempt' : 'attempts'}
                        {mail.status === 'pending' && ` · next ${formatDateTime(mail.nextAttemptAt)}`}
                      </p>
                      {mail.lastError && <p className="mt-1 break-words text-red-700">{mail.lastError}</p>}
                    </div>
                    <Button
                      variant="secondary"
                      busy={busy === mail.id}
                      onClick={async () => {
                        setBusy(mail.id);
                        setActionError(null);
                        try {
                          await dashboardApi.retryMail(mail.id);
                          reload();
                        } catch (failure) {
                          setActionError(problem(failure));
                        } finally {
                          setBusy(null);
                        }
                      }}
                    >
                      Retry now
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      )}
    </>
  );
}
