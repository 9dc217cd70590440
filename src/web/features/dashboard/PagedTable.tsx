import type { Dispatch, ReactNode, SetStateAction } from 'react';
import type { Page } from '../../../shared/dashboard';
import { Button } from '../../components/form';
import { DataTable, type DataTableProps } from './DataTable';
import { ChevronLeft, ChevronRight } from './icons';

/** A paged list's pager: where the reader is (said when it changes), and previous and next (null: none). */
export function PagerNav({
  status,
  previous,
  next,
}: {
  status: ReactNode;
  previous: (() => void) | null;
  next: (() => void) | null;
}) {
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-3 text-sm text-slate-700">
      <p aria-live="polite">{status}</p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={!previous} onClick={previous ?? undefined}>
          <ChevronLeft className="size-4" aria-hidden="true" />
          Previous
        </Button>
        <Button variant="secondary" disabled={!next} onClick={next ?? undefined}>
          Next
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}

/** Page n of m of a server-paged list, with previous and next. */
export function Pager({ data, onPage }: { data: Page<unknown>; onPage: (page: number) => void }) {
  const { page, pageSize, total } = data;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <PagerNav
      status={`Page ${Math.min(page, pages)} of ${pages} · ${total} ${total === 1 ? 'entry' : 'entries'}`}
      previous={page <= 1 ? null : () => onPage(page - 1)}
      next={page >= pages ? null : () => onPage(page + 1)}
    />
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
      <Pager data={data} onPage={(page) => setQuery((current) => ({ ...current, page }))} />
    </>
  );
}
