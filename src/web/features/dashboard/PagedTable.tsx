import type { Dispatch, SetStateAction } from 'react';
import type { Page } from '../../../shared/dashboard';
import { Button } from '../../components/form';
import { DataTable, type DataTableProps } from './DataTable';
import { ChevronLeft, ChevronRight } from './icons';

/** Page n of m, with previous and next. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-3 text-sm text-slate-700">
      <p aria-live="polite">
        Page {Math.min(page, pages)} of {pages} · {total} {total === 1 ? 'entry' : 'entries'}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeft className="size-4" aria-hidden="true" />
          Previous
        </Button>
        <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}

type TableQuery<Sort extends string> = { page: number; sort: Sort; dir: 'asc' | 'desc' };

/** One page of a server-paged, server-sorted table with its pager, both driving the screen's query. */
export function PagedTable<Row, Sort extends string, Query extends TableQuery<Sort>>({
  data,
  query,
  setQuery,
  ...table
}: Omit<DataTableProps<Row, Sort>, 'rows' | 'sort' | 'dir' | 'onSort'> & {
  data: Page<Row>;
  query: Query;
  setQuery: Dispatch<SetStateAction<Query>>;
}) {
  return (
    <>
      <DataTable
        {...table}
        rows={data.items}
        sort={query.sort}
        dir={query.dir}
        onSort={(sort, dir) => setQuery((current) => ({ ...current, sort, dir, page: 1 }))}
      />
      <Pager
        page={data.page}
        pageSize={data.pageSize}
        total={data.total}
        onPage={(page) => setQuery((current) => ({ ...current, page }))}
      />
    </>
  );
}
