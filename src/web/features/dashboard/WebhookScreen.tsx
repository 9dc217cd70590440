import { useState } from 'react';
import type { WebhookDeliverySummary } from '../../../shared/webhooks';
import { Button, FormError } from '../../components/form';
import { announce } from '../../lib/announce';
import { dashboardApi } from './api';
import { DataTable } from './DataTable';
import { BackLink } from './links';
import { Card, formatDateTime, ScreenTitle, StatusBadge, useScreenTitle } from './ui';
import { useDashboardData, useRecordId } from './useDashboardData';
import { useRowAction } from './useRowAction';
import { SecretOnce } from './WebhookSecret';
import { endpointState } from './WebhooksScreen';

/** One endpoint: its settings, Disable/Enable, Rotate secret, and its deliveries with Redeliver. */
export function WebhookScreen() {
  const id = useRecordId();
  useScreenTitle('Webhook endpoint');
  const detail = useDashboardData(() => dashboardApi.webhook(id), id);
  const { busy, error, run } = useRowAction();
  const [secret, setSecret] = useState<string | null>(null);
  /** A row's or the endpoint's action: its result is announced, then the endpoint and its deliveries read again. */
  const act = (name: string, action: () => Promise<string>) =>
    run(name, async () => {
      announce(await action());
      detail.reload();
    });
  const endpoint = detail.data?.endpoint;
  const columns = [
    {
      key: 'event',
      label: 'Event',
      render: (delivery: WebhookDeliverySummary) => (
        <span className="font-medium text-slate-900">{delivery.event}</span>
      ),
    },
    {
      key: 'created',
      label: 'Queued',
      render: (delivery: WebhookDeliverySummary) => formatDateTime(delivery.createdAt),
    },
    {
      key: 'state',
      label: 'State',
      render: (delivery: WebhookDeliverySummary) => <StatusBadge status={delivery.state} />,
    },
    {
      key: 'attempts',
      label: 'Attempts',
      render: (delivery: WebhookDeliverySummary) => (
        <ol className="space-y-0.5 text-xs">
          {delivery.attempts.map((attempt) => (
            <li key={attempt.attempt}>
              #{attempt.attempt} {formatDateTime(attempt.at)}:{' '}
              <strong>{attempt.status ?? 'no answer'}</strong>
              {(attempt.error || attempt.excerpt) && (
                <span className="block break-all text-slate-600">{attempt.error ?? attempt.excerpt}</span>
              )}
            </li>
          ))}
          {delivery.nextAttemptAt && (
            <li className="text-slate-600">next {formatDateTime(delivery.nextAttemptAt)}</li>
          )}
        </ol>
      ),
    },
    {
      key: 'redeliver',
      label: 'Action',
      render: (delivery: WebhookDeliverySummary) =>
        delivery.state === 'pending' ? (
          '—'
        ) : (
          <Button
            variant="secondary"
            busy={busy === `redeliver-${delivery.id}`}
            aria-label={`Redeliver ${delivery.event} from ${formatDateTime(delivery.createdAt)}`}
            onClick={() =>
              act(`redeliver-${delivery.id}`, async () => {
                await dashboardApi.redeliverWebhook(delivery.id);
                return `${delivery.event} queued again.`;
              })
            }
          >
            Redeliver
          </Button>
        ),
    },
  ];
  return (
    <>
      <BackLink to="/admin/webhooks">Webhooks</BackLink>
      <ScreenTitle title="Webhook endpoint">
        {endpoint && (
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              busy={busy === 'toggle'}
              onClick={() =>
                act('toggle', async () => {
                  await (endpoint.enabled ? dashboardApi.disableWebhook(id) : dashboardApi.enableWebhook(id));
                  return endpoint.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.';
                })
              }
            >
              {endpoint.enabled ? 'Disable' : 'Enable'}
            </Button>
            <Button
              variant="secondary"
              busy={busy === 'rotate'}
              onClick={() =>
                act('rotate', async () => {
                  const rotated = await dashboardApi.rotateWebhookSecret(id);
                  setSecret(rotated.secret);
                  return 'New secret made; the old one no longer signs.';
                })
              }
            >
              Rotate secret
            </Button>
          </div>
        )}
      </ScreenTitle>
      <FormError message={detail.error ?? error} />
      {endpoint && (
        <div className="grid gap-4">
          {secret && <SecretOnce secret={secret} url={endpoint.url} />}
          <Card title="Endpoint">
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-700">URL</dt>
              <dd className="break-all">{endpoint.url}</dd>
              <dt className="text-slate-700">For</dt>
              <dd>{endpoint.description || '—'}</dd>
              <dt className="text-slate-700">Events</dt>
              <dd>{endpoint.events.join(', ')}</dd>
              <dt className="text-slate-700">State</dt>
              <dd>
                <StatusBadge status={endpointState(endpoint)} />
                {endpoint.disabledReason && <span className="ml-2">{endpoint.disabledReason}</span>}
                {endpoint.failingSince && (
                  <span className="ml-2">since {formatDateTime(endpoint.failingSince)}</span>
                )}
              </dd>
              <dt className="text-slate-700">Added</dt>
              <dd>{formatDateTime(endpoint.createdAt)}</dd>
            </dl>
          </Card>
          <DataTable
            caption="Deliveries, newest first"
            columns={columns}
            rows={detail.data?.deliveries ?? []}
            rowKey={(delivery) => String(delivery.id)}
            empty="Nothing sent yet."
          />
        </div>
      )}
    </>
  );
}
