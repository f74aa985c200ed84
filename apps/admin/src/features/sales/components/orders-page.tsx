import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ORDER_STATUSES } from '@skyway/shared/plans';
import { useCoded } from '../../../lib/use-coded.ts';
import { money, when } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { type ListColumn, PagedTable } from '../../../components/paged-table.tsx';
import { providerColumn } from './provider-column.ts';
import { useCan } from '../../../lib/session.ts';
import { type Order, useOrders } from '../api/list-orders.ts';
import { useSalesFilters } from './sales-filters.tsx';

/** Every order, by status, provider, buyer and days; a buyer's from their page (`?user_id=`). */
export function OrdersPage() {
  const { t } = useTranslation(['sales', 'common']);
  const coded = useCoded();
  const can = useCan();
  const { filters, bar } = useSalesFilters({ key: 'status', codes: ORDER_STATUSES, prefix: 'order' });
  const list = useOrders(filters);
  if (!can('orders.view')) return <Forbidden />;
  const columns: ListColumn<Order>[] = [
    { title: t('common:createdAt'), dataIndex: 'created_at', render: when, sortsList: true },
    { title: t('common:order'), dataIndex: 'id' },
    {
      title: t('common:email'),
      dataIndex: 'email',
      render: (email: string, order) => <Link to={`/users/${order.user_id}`}>{email}</Link>,
    },
    {
      title: t('common:period'),
      dataIndex: 'period',
      render: (period: string) => coded('period', period),
      csv: (order) => order.period,
    },
    { title: t('common:connections'), dataIndex: 'connections' },
    {
      title: t('common:amount'),
      render: (_, order) => money(order.amount, order.currency),
      csv: (order) => (order.amount / 100).toFixed(2),
    },
    {
      title: t('coupon'),
      dataIndex: 'coupon_code',
      render: (code: string | null, order) =>
        code ? t('couponUsed', { code, discount: money(order.discount, order.currency) }) : t('common:none'),
      csv: (order) => order.coupon_code ?? '',
    },
    { title: t('currency'), dataIndex: 'currency' },
    providerColumn(t('common:provider')),
    {
      title: t('common:status'),
      dataIndex: 'status',
      render: (status: string) => coded('order', status),
      csv: (order) => order.status,
    },
    { title: t('common:paidAt'), dataIndex: 'paid_at', render: when },
  ];
  return (
    <>
      {bar}
      <PagedTable list={list} columns={columns} width={1100} exportName="orders" testId="orders" />
    </>
  );
}
