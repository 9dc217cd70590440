import { useState } from 'react';
import type { NewWebhookEndpoint, WebhookEndpointSummary } from '../../../shared/webhooks';
import { FormError } from '../../components/form';
import { announce } from '../../lib/announce';
import { dashboardApi } from './api';
import { DataTable } from './DataTable';
import { ScreenLink } from './links';
import { Card, ScreenTitle, StatusBadge, useScreenTitle } from './ui';
import { useDashboardData } from './useDashboardData';
import { EndpointForm } from './WebhookEndpointForm';
import { SecretOnce } from './WebhookSecret';

/** Outgoing webhooks (docs/webhooks.md): the endpoints and a form for a new one (WebhookScreen.tsx: one endpoint and its deliveries). */

/** An endpoint's state as its badge says it. */
export const endpointState = (endpoint: WebhookEndpointSummary) =>
  endpoint.enabled ? (endpoint.failingSince ? 'failing' : 'enabled') : 'disabled';

const COLUMNS = [
  {
    key: 'url',
    label: 'URL',
    render: (endpoint: WebhookEndpointSummary) => (
      <ScreenLink to={`/admin/webhooks/${endpoint.id}`} className="break-all">
        {endpoint.url}
      </ScreenLink>
    ),
  },
  {
    key: 'description',
    label: 'For',
    render: (endpoint: WebhookEndpointSummary) => endpoint.description || '—',
  },
  {
    key: 'events',
    label: 'Events',
    render: (endpoint: WebhookEndpointSummary) => endpoint.events.join(', '),
  },
  {
    key: 'state',
    label: 'State',
    render: (endpoint: WebhookEndpointSummary) => <StatusBadge status={endpointState(endpoint)} />,
  },
];

export function WebhooksScreen() {
  useScreenTitle('Webhooks');
  const list = useDashboardData(() => dashboardApi.webhooks(), 'webhooks');
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const add = async (input: NewWebhookEndpoint & { code: string }) => {
    const endpoint = await dashboardApi.addWebhook(input);
    setCreated({ url: endpoint.url, secret: endpoint.secret });
    announce(`Endpoint ${endpoint.url} added.`);
    list.reload();
  };
  return (
    <>
      <ScreenTitle title="Webhooks" />
      <FormError message={list.error} />
      <div className="grid gap-4">
        {created && <SecretOnce {...created} />}
        {list.data && (
          <DataTable
            caption="Webhook endpoints"
            columns={COLUMNS}
            rows={list.data}
            rowKey={(row) => row.id}
            empty="No endpoints yet."
          />
        )}
        <Card title="New endpoint">
          <p className="mb-4 text-sm text-slate-700">
            Each event is POSTed as JSON, signed as Standard Webhooks says, and retried for up to 3 days until
            the receiver answers 2xx. docs/webhooks.md tells the receiver’s developer how to check it.
          </p>
          <EndpointForm onAdd={add} />
        </Card>
      </div>
    </>
  );
}
