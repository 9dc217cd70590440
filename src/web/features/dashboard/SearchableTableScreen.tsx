import { useState } from 'react';
import type { CursorPage } from '../../../shared/dashboard';
import { FormError, SearchForm } from '../../components/form';
import { type CursorPosition, CursorTable, FIRST_PAGE } from './CursorTable';
import type { Column } from './DataTable';
import { ScreenTitle, useScreenTitle } from './ui';
import { useDashboardData } from './useDashboardData';

type SearchQuery<Sort extends string> = CursorPosition & { sort: Sort; dir: 'asc' | 'desc'; q: string };

/**
 * A screen that is one searchable, keyset-paged, server-sorted table (Customers, Activity): the title with its
 * search box, and the table of the page the query names.
 */
export function SearchableTableScreen<Row, Sort extends string>({
  title,
  search,
  initialSort,
  load,
  caption,
  columns,
  rowKey,
  empty,
}: {
  title: string;
  search: { id: string; label: string; placeholder: string };
  initialSort: Sort;
  load: (query: {
    after?: string;
    before?: string;
    sort: Sort;
    dir: 'asc' | 'desc';
    q?: string;
  }) => Promise<CursorPage<Row>>;
  caption: string;
  columns: Array<Column<Row, Sort>>;
  rowKey: (row: Row) => string | number;
  /** What an empty page says, with or without a search. */
  empty: (searching: boolean) => string;
}) {
  useScreenTitle(title);
  const [query, setQuery] = useState<SearchQuery<Sort>>({
    ...FIRST_PAGE,
    sort: initialSort,
    dir: 'desc',
    q: '',
  });
  const { data, error } = useDashboardData(
    () =>
      load({
        after: query.after,
        before: query.before,
        sort: query.sort,
        dir: query.dir,
        q: query.q || undefined,
      }),
    JSON.stringify(query),
  );
  return (
    <>
      <ScreenTitle title={title}>
        <SearchForm
          {...search}
          onSearch={(q) =>
            setQuery((current) => ({ ...current, after: undefined, before: undefined, ...FIRST_PAGE, q }))
          }
        />
      </ScreenTitle>
      <FormError message={error} />
      {data && (
        <CursorTable
          data={data}
          query={query}
          setQuery={setQuery}
          caption={caption}
          columns={columns}
          rowKey={rowKey}
          empty={empty(query.q !== '')}
        />
      )}
    </>
  );
}
