import type { Dispatch, ReactNode, SetStateAction } from 'react';
import { COUNT_LIMIT, type CursorPage, type Page } from '../../../shared/dashboard';
import { Button } from '../../components/form';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight } from './icons';

export type Column<Row, Sort extends string> = {
  key: string;
  label: string;
  /** The server's sort key, when the column can be sorted by. */
  sort?: Sort;
  render: (row: Row) => ReactNode;
  className?: string;
};

type Props<Row, Sort extends string> = {
  caption: string;
  columns: Array<Column<Row, Sort>>;
  rows: Row[];
  rowKey: (row: Row) => string | number;
  /** Leave out for a table that is not sorted by the operator. */
  sort?: Sort;
  dir?: 'asc' | 'desc';
  onSort?: (sort: Sort, dir: 'asc' | 'desc') => void;
  empty: string;
};

/**
 * A server-sorted table. Sorting is a button in each sortable header (keyboard operable, state in aria-sort). On a
 * phone each row becomes a card, every value labelled with its column.
 */
export function DataTable<Row, Sort extends string>({
  caption,
  columns,
  rows,
  rowKey,
  sort,
  dir,
  onSort,
  empty,
}: Props<Row, Sort>) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white shadow-xs">
      <table className="w-full text-left text-sm max-sm:block">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-slate-700 max-sm:sr-only">
          <tr>
            {columns.map((column) => {
              const active = column.sort !== undefined && column.sort === sort;
              const ariaSort = active ? (dir === 'asc' ? 'ascending' : 'descending') : undefined;
              return (
                <th key={column.key} scope="col" aria-sort={ariaSort} className="px-4 py-2.5 font-semibold">
                  {column.sort && onSort ? (
                    <button
                      type="button"
                      className="inline-flex items-center gap-1 rounded hover:text-slate-900"
                      onClick={() => {
                        const next = column.sort as Sort;
                        onSort(next, active && dir === 'desc' ? 'asc' : 'desc');
                      }}
                    >
                      {column.label}
                      {active ? (
                        dir === 'asc' ? (
                          <ArrowUp className="size-3.5" aria-hidden="true" />
                        ) : (
                          <ArrowDown className="size-3.5" aria-hidden="true" />
                        )
                      ) : (
                        <ArrowUpDown className="size-3.5 text-slate-500" aria-hidden="true" />
                      )}
                    </button>
                  ) : (
                    column.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="max-sm:block">
          {rows.length === 0 ? (
            <tr className="max-sm:block">
              <td colSpan={columns.length} className="px-4 py-6 text-center text-slate-600 max-sm:block">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr
                key={rowKey(row)}
                className="border-b border-slate-100 last:border-0 max-sm:block max-sm:px-4 max-sm:py-3"
              >
                {columns.map((column) => (
                  <td
                    key={column.key}
                    data-label={column.label}
                    className={`px-4 py-2.5 align-top text-slate-800 max-sm:flex max-sm:gap-3 max-sm:px-0 max-sm:py-0.5 max-sm:before:w-24 max-sm:before:shrink-0 max-sm:before:font-medium max-sm:before:text-slate-600 max-sm:before:content-[attr(data-label)] ${column.className ?? ''}`}
                  >
                    <div className="min-w-0 break-words">{column.render(row)}</div>
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

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
}: Omit<Props<Row, Sort>, 'rows' | 'sort' | 'dir' | 'onSort'> & {
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
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-3 text-sm text-slate-700">
      <p aria-live="polite">
        Page {pages === undefined ? pageNumber : Math.min(pageNumber, pages)}
        {pages === undefined ? '' : ` of ${pages}`} · {entries}
      </p>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          disabled={data.previous === null}
          onClick={() =>
            onMove({ before: data.previous ?? undefined, pageNumber: Math.max(1, pageNumber - 1) })
          }
        >
          <ChevronLeft className="size-4" aria-hidden="true" />
          Previous
        </Button>
        <Button
          variant="secondary"
          disabled={data.next === null}
          onClick={() => onMove({ after: data.next ?? undefined, pageNumber: pageNumber + 1 })}
        >
          Next
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}

type CursorQuery<Sort extends string> = CursorPosition & { sort: Sort; dir: 'asc' | 'desc' };

/** One page of a keyset-paged, server-sorted table with its pager; sorting starts again from the first page. */
export function CursorTable<Row, Sort extends string, Query extends CursorQuery<Sort>>({
  data,
  query,
  setQuery,
  ...table
}: Omit<Props<Row, Sort>, 'rows' | 'sort' | 'dir' | 'onSort'> & {
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
