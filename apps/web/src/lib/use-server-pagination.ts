import { useState } from 'react';
import type { TablePaginationConfig } from 'antd';

/** The console's lists show 10 rows a page unless the visitor picks another size. */
export const DEFAULT_PAGE_SIZE = 10;

export interface ServerPagination {
  /** The page to ask the server for, from 1. */
  page: number;
  /** Rows a page, to ask the server for. */
  size: number;
  /** An antd Table's `pagination` for a list whose server reports `total` rows. */
  pagination: (total: number | undefined) => TablePaginationConfig;
}

/**
 * Page and page size of a list that the server paginates: the table shows what the server returned
 * for them, and a new page size starts again from the first page.
 */
export function useServerPagination(initialSize = DEFAULT_PAGE_SIZE): ServerPagination {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(initialSize);
  return {
    page,
    size,
    pagination: (total) => ({
      current: page,
      pageSize: size,
      total: total ?? 0,
      onChange: (nextPage, nextSize) => {
        setPage(nextSize === size ? nextPage : 1);
        setSize(nextSize);
      },
    }),
  };
}
