import { useState } from 'react';
import { Link } from 'wouter';
import {
  type NewWebhookEndpoint,
  newWebhookEndpointSchema,
  WEBHOOK_EVENTS,
  type WebhookDeliverySummary,
  type WebhookEndpointSummary,
  type WebhookEvent,
} from '../../../shared/webhooks';
import { Button, Checkbox, FormError, TextField, useForm } from '../../components/form';
import { Notice } from '../../components/form/Notice';
import { announce } from '../../lib/announce';
import { dashboardApi, problem } from './api';
import { DataTable } from './DataTable';
import { ArrowLeft } from './icons';
import { Card, formatDateTime, ScreenTitle, StatusBadge, useScreenTitle } from './ui';
import { useDashboardData, useRecordId } from './useDashboardData';

/** Outgoing webhooks (docs/webhooks.md): the endpoints, a form for a new one, and each one's deliveries. */

const endpointState = (endpoint: WebhookEndpointSummary) =>
  endpoint.enabled ? (endpoint.failingSince ? 'failing' : 'enabled') : 'disabled';

const COLUMNS = [
  {
    key: 'url',
    label: 'URL',
    render: (endpoint: WebhookEndpointSummary) => (
      <Link
        to={`/admin/webhooks/${endpoint.id}`}
        className="font-medium break-all text-brand-700 underline underline-offset-2"
      >
        {endpoint.url}
      </Link>
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

/** The secret, shown once: after an endpoint is added or its secret rotated. */
function SecretOnce({ secret, url }: { secret: string; url: string }) {
  return (
    <Notice tone="success">
      <span className="block">
        The secret of {url}. Copy it into the receiver now: it is not shown again.
      </span>
      <code className="mt-2 block rounded-md bg-white px-2 py-1.5 font-mono text-sm break-all text-slate-900 select-all">
        {secret}
      </code>
    </Notice>
  );
}

type EndpointValues = { url: string; description: string; code: string };
const FIELDS = ['url', 'description', 'code'] as const;
const fieldId = (field: string) => `webhook-${field}`;
const INITIAL: EndpointValues = { url: '', description: '', code: '' };

function EndpointForm({ onAdd }: { onAdd: (input: NewWebhookEndpoint & { code: string }) => Promise<void> }) {
  const form = useForm({ initial: INITIAL, fields: FIELDS, idOf: fieldId });
  const [events, setEvents] = useState<WebhookEvent[]>(['order.paid', 'order.refunded']);
  const [eventsError, setEventsError] = useState<string | null>(null);
  const submit = form.submit({
    validate: (values) => {
      const { code, ...endpoint } = values;
      const parsed = newWebhookEndpointSchema.safeParse({ ...endpoint, events });
      const problems: Partial<Record<(typeof FIELDS)[number], string>> = {};
      setEventsError(null);
      for (const issue of parsed.error?.issues ?? []) {
        const field = issue.path[0];
        if (field === 'events') setEventsError(issue.message);
        else if (field === 'url' || field === 'description') problems[field] ??= issue.message;
      }
      if (!/^\d{6}$/.test(code.trim())) problems.code = 'Enter the 6-digit code from your authenticator app';
      return problems;
    },
    send: async (values) => {
      if (eventsError || events.length === 0) return;
      await onAdd({ ...values, events });
      form.setValues(INITIAL);
    },
    explain: (failure) => problem(failure),
  });
  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <TextField
        {...form.field('url')}
        label="URL"
        hint="Where to POST each event: https://… on a public address"
        inputMode="url"
        autoComplete="off"
      />
      <TextField
        {...form.field('description')}
        label="Description"
        hint="What receives them, e.g. Accounting"
        maxLength={200}
      />
      <fieldset aria-describedby={eventsError ? 'webhook-events-error' : undefined}>
        <legend className="mb-1 text-sm font-medium text-slate-800">Events</legend>
        <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-3">
          {WEBHOOK_EVENTS.map((event) => (
            <Checkbox
              key={event}
              label={event}
              checked={events.includes(event)}
              onCheckedChange={(checked) =>
                setEvents((current) => (checked ? [...current, event] : current.filter((e) => e !== event)))
              }
            />
          ))}
        </div>
        {eventsError && (
          <p id="webhook-events-error" className="mt-1 text-sm text-red-700">
            {eventsError}
          </p>
        )}
      </fieldset>
      <TextField
        {...form.field('code')}
        label="Code from your authenticator app"
        hint="Events carry customers’ data to this address: confirm it is you"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        className="sm:max-w-xs"
      />
      <div className="space-y-2">
        <FormError message={form.formError} />
        <Button type="submit" busy={form.busy === 'submit'}>
          Add the endpoint
        </Button>
      </div>
    </form>
  );
}

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

/** One endpoint: its settings, Disable/Enable, Rotate secret, and its deliveries with Redeliver. */
export function WebhookScreen() {
  const id = useRecordId();
  useScreenTitle('Webhook endpoint');
  const detail = useDashboardData(() => dashboardApi.webhook(id), id);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const act = async (name: string, action: () => Promise<string>) => {
    setBusy(name);
    setError(null);
    try {
      announce(await action());
      detail.reload();
    } catch (failure) {
      setError(problem(failure));
    } finally {
      setBusy(null);
    }
  };
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
      <Link
        to="/admin/webhooks"
        className="mb-3 inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline underline-offset-2"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Webhooks
      </Link>
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
