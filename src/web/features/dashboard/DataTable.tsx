import type { ReactNode } from 'react';
import { ArrowDown, ArrowUp, ArrowUpDown } from './icons';

export type Column<Row, Sort extends string> = {
  key: string;
  label: string;
  /** The server's sort key, when the column can be sorted by. */
  sort?: Sort;
  render: (row: Row) => ReactNode;
  className?: string;
};

/** What a table is drawn from; the paged tables take it without the rows and the sorting, which they drive. */
export type DataTableProps<Row, Sort extends string> = {
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
}: DataTableProps<Row, Sort>) {
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
