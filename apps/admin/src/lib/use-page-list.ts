import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '@skyway/shared/paging';
import type { SortOrder } from '@skyway/shared/schemas/admin/common';
import { api, query } from './api-client.ts';

export type Filters = Record<string, string | number | undefined>;

/**
 * A list the server pages: the current page's items and the antd pagination that moves through them.
 * `filters` are sent as query parameters; a change of them goes back to page 1. With `sortable`, the
 * list is sorted by its time, newest first until the member turns it (the `order` parameter).
 */
export function usePageList<Item>(
  path: string,
  filters: Filters = {},
  /** `sorts`: the columns the server sorts by (the `sort` parameter), the first by default. */
  options: { sortable?: boolean; sorts?: readonly string[] } = {},
) {
  const { t } = useTranslation('common');
  const [position, setPosition] = useState({ page: 1, size: 20, key: '' });
  const [order, setOrder] = useState<SortOrder>('desc');
  const [sort, setSort] = useState(options.sorts?.[0]);
  const sent: Filters = options.sortable ? { ...filters, ...(sort ? { sort } : {}), order } : filters;
  const key = JSON.stringify(sent);
  const page = position.key === key ? position.page : 1;
  const result = useQuery({
    queryKey: [path, sent, page, position.size],
    queryFn: () => api<Page<Item>>('GET', `${path}${query({ ...sent, page, size: position.size })}`),
    placeholderData: keepPreviousData,
  });
  const data = result.data;
  const pagination: TablePaginationConfig = {
    current: page,
    pageSize: position.size,
    total: data?.total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50, 100],
    showTotal: (total) =>
      data?.total_capped ? t('totalCapped', { count: total }) : t('total', { count: total }),
    onChange: (next, size) => setPosition({ page: size === position.size ? next : 1, size, key }),
  };
  return {
    ...result,
    path,
    filters: sent,
    items: data?.items ?? [],
    pagination,
    order: options.sortable ? order : undefined,
    setOrder,
    sort,
    setSort,
  };
}

export type PageList<Item> = ReturnType<typeof usePageList<Item>>;
