import type { ActivityEntry } from '../../../shared/dashboard';
import { dashboardApi } from './api';
import type { Column } from './DataTable';
import { SearchableTableScreen } from './SearchableTableScreen';
import { formatDateTime } from './ui';

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
  return (
    <SearchableTableScreen
      title="Activity"
      search={{ id: 'activity-search', label: 'Search activity', placeholder: 'Who, what or on what' }}
      initialSort="createdAt"
      load={dashboardApi.activity}
      caption="Operator actions"
      columns={COLUMNS}
      rowKey={(entry) => entry.id}
      empty={(searching) => (searching ? 'Nothing matches this search.' : 'No operator actions yet.')}
    />
  );
}
