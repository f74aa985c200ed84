import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ORDER_STATUSES } from '@skyway/shared/plans';
import type { adminOrderSchema } from '@skyway/shared/schemas/admin/sales';
import { useCoded } from '../coded.ts';
import { money, when } from '../format.ts';
import { Forbidden } from '../layout.tsx';
import { type ListColumn, PagedTable } from '../paged-table.tsx';
import { useCan } from '../session.ts';
import { usePageList } from '../use-page-list.ts';
import { useSalesFilters } from './sales-filters.tsx';

type Order = z.infer<typeof adminOrderSchema>;

/** Every order, by status, provider, buyer and days; a buyer's from their page (`?user_id=`). */
export function OrdersPage() {
  const { t } = useTranslation();
  const coded = useCoded();
  const can = useCan();
  const { filters, bar } = useSalesFilters({ key: 'status', codes: ORDER_STATUSES, prefix: 'order' });
  const list = usePageList<Order>('/orders', filters, { sortable: true });
  if (!can('orders.view')) return <Forbidden />;
  const columns: ListColumn<Order>[] = [
    { title: t('createdAt'), dataIndex: 'created_at', render: when, sortsList: true },
    { title: t('order'), dataIndex: 'id' },
    {
      title: t('email'),
      dataIndex: 'email',
      render: (email: string, order) => <Link to={`/users/${order.user_id}`}>{email}</Link>,
    },
    {
      title: t('period'),
      dataIndex: 'period',
      render: (period: string) => coded('period', period),
      csv: (order) => order.period,
    },
    { title: t('connections'), dataIndex: 'connections' },
    {
      title: t('amount'),
      render: (_, order) => money(order.amount, order.currency),
      csv: (order) => (order.amount / 100).toFixed(2),
    },
    { title: t('currency'), dataIndex: 'currency' },
    { title: t('provider'), dataIndex: 'provider' },
    {
      title: t('status'),
      dataIndex: 'status',
      render: (status: string) => coded('order', status),
      csv: (order) => order.status,
    },
    { title: t('paidAt'), dataIndex: 'paid_at', render: when },
  ];
  return (
    <>
      {bar}
      <PagedTable list={list} columns={columns} width={1100} exportName="orders" testId="orders" />
    </>
  );
}
