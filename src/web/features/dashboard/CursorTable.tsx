import type { Dispatch, SetStateAction } from 'react';
import { COUNT_LIMIT, type CursorPage } from '../../../shared/dashboard';
import { DataTable, type DataTableProps } from './DataTable';
import { PagerNav } from './PagedTable';

/** Where a keyset-paged table is: the cursor of its page and that page's number (counted here, for the reader). */
export type CursorPosition = { after?: string; before?: string; pageNumber: number };

export const FIRST_PAGE: CursorPosition = { pageNumber: 1 };

/** Previous and next of a keyset-paged table (orders, customers, activity): no jumping to page n, by design. */
export function CursorPager({
  data,
  pageNumber,
  onMove,
}: {
  data: CursorPage<unknown>;
  pageNumber: number;
  onMove: (position: CursorPosition) => void;
}) {
  const entries = data.totalCapped
    ? `more than ${COUNT_LIMIT.toLocaleString('en-IN')} entries`
    : `${data.total} ${data.total === 1 ? 'entry' : 'entries'}`;
  const pages = data.totalCapped ? undefined : Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <PagerNav
      status={`Page ${pages === undefined ? pageNumber : Math.min(pageNumber, pages)}${pages === undefined ? '' : ` of ${pages}`} · ${entries}`}
      previous={
        data.previous === null
          ? null
          : () => onMove({ before: data.previous ?? undefined, pageNumber: Math.max(1, pageNumber - 1) })
      }
      next={
        data.next === null
          ? null
          : () => onMove({ after: data.next ?? undefined, pageNumber: pageNumber + 1 })
      }
    />
  );
}

type CursorQuery<Sort extends string> = CursorPosition & { sort: Sort; dir: 'asc' | 'desc' };

/** One page of a keyset-paged, server-sorted table with its pager; sorting starts again from the first page. */
export function CursorTable<Row, Sort extends string, Query extends CursorQuery<Sort>>({
  data,
  query,
  setQuery,
  ...table
}: Omit<DataTableProps<Row, Sort>, 'rows' | 'sort' | 'dir' | 'onSort'> & {
  data: CursorPage<Row>;
  query: Query;
  setQuery: Dispatch<SetStateAction<Query>>;
}) {
  const at = ({ after, before, pageNumber }: CursorPosition) => ({ after, before, pageNumber });
  return (
    <>
      <DataTable
        {...table}
        rows={data.items}
        sort={query.sort}
        dir={query.dir}
        onSort={(sort, dir) => setQuery((current) => ({ ...current, sort, dir, ...at(FIRST_PAGE) }))}
      />
      <CursorPager
        data={data}
        pageNumber={query.pageNumber}
        onMove={(position) => setQuery((current) => ({ ...current, ...at(position) }))}
      />
    </>
  );
}
