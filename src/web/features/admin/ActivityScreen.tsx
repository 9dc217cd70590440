import { Search } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { ActivityEntry } from '../../../shared/dashboard';
import { adminApi } from './api';
import { type Column, DataTable, Pager } from './DataTable';
import { ErrorText, formatDateTime, ScreenTitle, useScreenTitle } from './ui';
import { useAdminData } from './useAdminData';

type Sort = 'createdAt' | 'actor' | 'action';

/** A before/after value on one line; objects as their fields. */
function summarise(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  return Object.entries(value as Record<string, unknown>)
    .map(
      ([key, field]) =>
        `${key}: ${typeof field === 'object' && field !== null ? JSON.stringify(field) : String(field)}`,
    )
    .join(', ');
}

const COLUMNS: Array<Column<ActivityEntry, Sort>> = [
  {
    key: 'when',
    label: 'When',
    sort: 'createdAt',
    render: (entry) => <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>,
    className: 'whitespace-nowrap',
  },
  { key: 'who', label: 'Who', sort: 'actor', render: (entry) => entry.actor },
  {
    key: 'what',
    label: 'What',
    sort: 'action',
    render: (entry) => <code className="font-mono text-xs">{entry.action}</code>,
  },
  { key: 'target', label: 'On', render: (entry) => entry.target ?? '' },
  {
    key: 'change',
    label: 'Change',
    render: (entry) => (
      <span className="text-slate-700">
        {summarise(entry.before) && (
          <span className="line-through decoration-slate-400">{summarise(entry.before)}</span>
        )}
        {summarise(entry.before) && summarise(entry.after) && ' → '}
        {summarise(entry.after)}
      </span>
    ),
  },
];

/** The audit log: every operator action, read-only, searchable, newest first. */
export function ActivityScreen() {
  useScreenTitle('Activity');
  const [query, setQuery] = useState({
    page: 1,
    sort: 'createdAt' as Sort,
    dir: 'desc' as 'asc' | 'desc',
    q: '',
  });
  const [search, setSearch] = useState('');
  const { data, error } = useAdminData(
    () => adminApi.activity({ ...query, q: query.q || undefined }),
    JSON.stringify(query),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery((current) => ({ ...current, page: 1, q: search.trim() }));
  };

  return (
    <>
      <ScreenTitle title="Activity">
        <search className="w-full sm:w-auto">
          <form onSubmit={submit} className="flex w-full gap-2 sm:w-auto">
            <label htmlFor="activity-search" className="sr-only">
              Search activity
            </label>
            <input
              id="activity-search"
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Who, what or on what"
              className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm sm:w-64"
            />
            <button
              type="submit"
              className="inline-flex min-h-10 items-center gap-1.5 rounded-lg bg-brand-800 px-3 text-sm font-semibold text-white hover:bg-brand-900"
            >
              <Search className="size-4" aria-hidden="true" />
              Search
            </button>
          </form>
        </search>
      </ScreenTitle>
      <ErrorText message={error} />
      {data && (
        <>
          <DataTable
            caption="Operator actions"
            columns={COLUMNS}
            rows={data.items}
            rowKey={(entry) => entry.id}
            sort={query.sort}
            dir={query.dir}
            onSort={(sort, dir) => setQuery((current) => ({ ...current, sort, dir, page: 1 }))}
            empty={query.q ? 'Nothing matches this search.' : 'No operator actions yet.'}
          />
          <Pager
            page={data.page}
            pageSize={data.pageSize}
            total={data.total}
            onPage={(page) => setQuery((current) => ({ ...current, page }))}
          />
        </>
      )}
    </>
  );
}
