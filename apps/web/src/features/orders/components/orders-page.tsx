import { Card, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/page-meta.ts';

interface OrderRow {
  order_id: string;
  months: number;
  pay_time: number;
  latest_pay_time: number;
  amount: number;
  status: string;
}

/** The orders table with the spec's columns; its rows arrive with the order calls (a later issue). */
export function OrdersPage() {
  const { t } = useTranslation('orders');
  usePageMeta(t('title'));
  const columns: TableColumnsType<OrderRow> = [
    { key: 'order_id', dataIndex: 'order_id', title: t('columns.orderId') },
    { key: 'months', dataIndex: 'months', title: t('columns.months') },
    { key: 'pay_time', dataIndex: 'pay_time', title: t('columns.payTime') },
    { key: 'latest_pay_time', dataIndex: 'latest_pay_time', title: t('columns.latestPayTime') },
    { key: 'amount', dataIndex: 'amount', title: t('columns.amount') },
    { key: 'status', dataIndex: 'status', title: t('columns.status') },
  ];
  return (
    <Card title={t('title')}>
      <Table<OrderRow> rowKey="order_id" columns={columns} dataSource={[]} scroll={{ x: 720 }} />
    </Card>
  );
}
