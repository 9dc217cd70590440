import { useState } from 'react';
import { Link } from 'wouter';
import type { AdminTool } from '../../../shared/dashboard';
import { formatSubunits } from '../../../shared/money';
import { FormError } from '../../components/form';
import { dashboardApi } from './api';
import type { Column } from './DataTable';
import { Plus } from './icons';
import { ScreenLink } from './links';
import { PagedTable } from './PagedTable';
import { formatDateTime, ScreenTitle, StatusBadge, useScreenTitle } from './ui';
import { useDashboardData } from './useDashboardData';

type Sort = 'name' | 'updatedAt' | 'priceINR';

const COLUMNS: Array<Column<AdminTool, Sort>> = [
  {
    key: 'name',
    label: 'Name',
    sort: 'name',
    render: (tool) => <ScreenLink to={`/admin/tools/${tool.id}`}>{tool.name}</ScreenLink>,
  },
  { key: 'device', label: 'Device', render: (tool) => tool.device ?? '—' },
  {
    key: 'price',
    label: 'Price',
    sort: 'priceINR',
    render: (tool) => (
      <span className="tabular-nums">
        {formatSubunits(tool.pricePaise, 'INR')} ·{' '}
        {tool.priceCents === null ? 'USD from INR' : formatSubunits(tool.priceCents, 'USD')}
      </span>
    ),
  },
  {
    key: 'state',
    label: 'State',
    render: (tool) => (
      <span className="flex flex-wrap gap-1">
        <StatusBadge status={tool.active ? 'active' : 'hidden'} />
        {tool.comingSoon && <StatusBadge status="coming soon" />}
      </span>
    ),
  },
  { key: 'file', label: 'File', render: (tool) => tool.file?.name ?? 'none' },
  { key: 'updated', label: 'Changed', sort: 'updatedAt', render: (tool) => formatDateTime(tool.updatedAt) },
];

/** The catalogue as the operator manages it: every tool, hidden ones too. */
export function ToolsScreen() {
  useScreenTitle('Tools');
  const [query, setQuery] = useState({ page: 1, sort: 'name' as Sort, dir: 'asc' as 'asc' | 'desc' });
  const { data, error } = useDashboardData(() => dashboardApi.tools(query), JSON.stringify(query));
  return (
    <>
      <ScreenTitle title="Tools">
        <Link
          to="/admin/tools/new"
          className="inline-flex min-h-10 items-center gap-1.5 rounded-lg bg-brand-800 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900"
        >
          <Plus className="size-4" aria-hidden="true" />
          Add a tool
        </Link>
      </ScreenTitle>
      <FormError message={error} />
      {data && (
        <PagedTable
          data={data}
          query={query}
          setQuery={setQuery}
          caption="Tools"
          columns={COLUMNS}
          rowKey={(tool) => tool.id}
          empty="No tools yet."
        />
      )}
    </>
  );
}
