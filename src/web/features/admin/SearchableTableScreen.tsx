import { useState } from 'react';
import type { Page } from '../../../shared/dashboard';
import { FormError, SearchForm } from '../../components/form';
import { type Column, PagedTable } from './DataTable';
import { ScreenTitle, useScreenTitle } from './ui';
import { useAdminData } from './useAdminData';

type SearchQuery<Sort extends string> = { page: number; sort: Sort; dir: 'asc' | 'desc'; q: string };

/**
 * A screen that is one searchable, server-paged, server-sorted table (Customers, Activity): the title with its
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
  load: (query: { page: number; sort: Sort; dir: 'asc' | 'desc'; q?: string }) => Promise<Page<Row>>;
  caption: string;
  columns: Array<Column<Row, Sort>>;
  rowKey: (row: Row) => string | number;
  /** What an empty page says, with or without a search. */
  empty: (searching: boolean) => string;
}) {
  useScreenTitle(title);
  const [query, setQuery] = useState<SearchQuery<Sort>>({ page: 1, sort: initialSort, dir: 'desc', q: '' });
  const { data, error } = useAdminData(
    () => load({ ...query, q: query.q || undefined }),
    JSON.stringify(query),
  );
  return (
    <>
      <ScreenTitle title={title}>
        <SearchForm {...search} onSearch={(q) => setQuery((current) => ({ ...current, page: 1, q }))} />
      </ScreenTitle>
      <FormError message={error} />
      {data && (
        <PagedTable
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
