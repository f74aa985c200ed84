import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, query } from './api.ts';

export interface Page<Item> {
  total: number;
  page: number;
  size: number;
  items: Item[];
  total_capped?: boolean;
}

/**
 * A list the server pages: the current page's items and the antd pagination that moves through them.
 * `filters` are sent as query parameters; a change of them goes back to page 1.
 */
export function usePageList<Item>(path: string, filters: Record<string, string | number | undefined> = {}) {
  const { t } = useTranslation();
  const [position, setPosition] = useState({ page: 1, size: 20, key: '' });
  const key = JSON.stringify(filters);
  const page = position.key === key ? position.page : 1;
  const result = useQuery({
    queryKey: [path, filters, page, position.size],
    queryFn: () => api<Page<Item>>('GET', `${path}${query({ ...filters, page, size: position.size })}`),
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
  return { ...result, items: data?.items ?? [], pagination };
}

export type PageList<Item> = ReturnType<typeof usePageList<Item>>;
