import { useState } from 'react';
import type { MessageRow } from '../../../shared/dashboard';
import { SITE } from '../../../shared/site';
import { Button, FormError } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { dashboardApi, problem } from './api';
import { Check, Reply } from './icons';
import { Pager } from './PagedTable';
import { formatDateTime, ScreenTitle, useScreenTitle } from './ui';
import { useDashboardData } from './useDashboardData';

const replyLink = (message: MessageRow) =>
  `mailto:${encodeURIComponent(message.email)}?subject=${encodeURIComponent(`Re: your message to ${SITE.name}`)}`;

function MessageCard({ message, onHandled }: { message: MessageRow; onHandled: () => void }) {
  const { run, busy, error } = useAction(problem);
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-xs">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">
          {message.name}
          {message.organisation && (
            <span className="font-normal text-slate-600"> · {message.organisation}</span>
          )}
        </h2>
        <p className="text-sm text-slate-600">
          {message.relatedTo} · <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
        </p>
      </div>
      <p className="mt-1 text-sm text-slate-700">{message.email}</p>
      <p className="mt-3 whitespace-pre-line break-words text-slate-800">{message.description}</p>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <a
          href={replyLink(message)}
          className="inline-flex min-h-10 items-center gap-1.5 rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50"
        >
          <Reply className="size-4" aria-hidden="true" />
          Reply
        </a>
        {message.handledAt ? (
          <p className="text-sm text-slate-600">Handled {formatDateTime(message.handledAt)}</p>
        ) : (
          <Button
            variant="secondary"
            busy={busy}
            onClick={() =>
              run(async () => {
                await dashboardApi.markHandled(message.id);
                onHandled();
              })
            }
          >
            <Check className="size-4" aria-hidden="true" />
            Mark handled
          </Button>
        )}
      </div>
      <FormError message={error} />
    </li>
  );
}

/** Contact messages: unhandled messages first (oldest first, as a queue); reply opens the mail client. */
export function MessagesScreen() {
  useScreenTitle('Messages');
  const [query, setQuery] = useState({ page: 1, show: 'unhandled' as 'unhandled' | 'all' });
  const { data, error, reload } = useDashboardData(() => dashboardApi.messages(query), JSON.stringify(query));
  return (
    <>
      <ScreenTitle title="Messages">
        <fieldset className="flex gap-4 text-sm">
          <legend className="sr-only">Show</legend>
          {(['unhandled', 'all'] as const).map((show) => (
            <label key={show} className="flex items-center gap-1.5">
              <input
                type="radio"
                name="messages-show"
                checked={query.show === show}
                onChange={() => setQuery({ page: 1, show })}
              />
              {show === 'unhandled' ? 'Unhandled' : 'All, unhandled first'}
            </label>
          ))}
        </fieldset>
      </ScreenTitle>
      <FormError message={error} />
      {data && (
        <>
          {data.items.length === 0 ? (
            <p className="rounded-xl border border-slate-200 bg-white p-6 text-center text-slate-600">
              {query.show === 'unhandled' ? 'No unhandled messages.' : 'No messages yet.'}
            </p>
          ) : (
            <ul className="space-y-3">
              {data.items.map((message) => (
                <MessageCard key={message.id} message={message} onHandled={reload} />
              ))}
            </ul>
          )}
          <Pager data={data} onPage={(page) => setQuery((current) => ({ ...current, page }))} />
        </>
      )}
    </>
  );
}
