import { useState } from 'react';
import {
  type NewWebhookEndpoint,
  newWebhookEndpointSchema,
  WEBHOOK_EVENTS,
  type WebhookEvent,
} from '../../../shared/webhooks';
import { Button, Checkbox, FormError, TextField, useForm } from '../../components/form';
import { problem } from './api';
import { AuthenticatorCodeField } from './fields';

type EndpointValues = { url: string; description: string; code: string };
const FIELDS = ['url', 'description', 'code'] as const;
const fieldId = (field: string) => `webhook-${field}`;
const INITIAL: EndpointValues = { url: '', description: '', code: '' };

/** A new endpoint: its URL, what it is for, the events it takes, and the authenticator code. */
export function EndpointForm({
  onAdd,
}: {
  onAdd: (input: NewWebhookEndpoint & { code: string }) => Promise<void>;
}) {
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
      <AuthenticatorCodeField
        {...form.field('code')}
        hint="Events carry customers’ data to this address: confirm it is you"
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
