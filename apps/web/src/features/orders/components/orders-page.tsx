import { Button, Card, Popconfirm, Space, Table, Tag, type TableColumnsType } from 'antd';
import { formatDateTime } from '@skyway/shared/dates';
import { formatYuan, type Order, type OrderStatus } from '@skyway/shared/plans';
import { useTranslation } from 'react-i18next';
import { openPage } from '../../../lib/page.ts';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { useServerPagination } from '../../../lib/use-server-pagination.ts';
import { useCancelOrder, useOrders } from '../api/orders.ts';

const STATUS_COLOR: Record<OrderStatus, string> = {
  unpaid: 'gold',
  paid: 'green',
  expired: 'default',
  cancelled: 'default',
};

/** My orders: the server-paginated list; an unpaid order can be paid or cancelled from its row. */
export function OrdersPage() {
  const { t } = useTranslation('orders');
  usePageMeta(t('title'));
  const { page, size, pagination } = useServerPagination();
  const orders = useOrders(page, size);
  const cancel = useCancelOrder();
  const data = orders.data;

  async function cancelNow(order: Order) {
    try {
      await cancel.mutateAsync(order.order_id);
      showSuccess(t('cancelled'), MESSAGE_SECONDS);
    } catch {
      // The api client has shown the server's message.
    }
  }

  const time = (value: number) => (value ? formatDateTime(value) : t('none'));
  const columns: TableColumnsType<Order> = [
    { key: 'order_id', dataIndex: 'order_id', title: t('columns.orderId') },
    { key: 'months', dataIndex: 'months', title: t('columns.months') },
    { key: 'pay_time', dataIndex: 'pay_time', title: t('columns.payTime'), render: time },
    {
      key: 'latest_pay_time',
      dataIndex: 'latest_pay_time',
      title: t('columns.latestPayTime'),
      render: time,
    },
    {
      key: 'amount',
      dataIndex: 'amount',
      title: t('columns.amount'),
      render: (value: number) => formatYuan(value),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('columns.status'),
      render: (status: OrderStatus) => <Tag color={STATUS_COLOR[status]}>{t(`status.${status}`)}</Tag>,
    },
    {
      key: 'actions',
      title: t('columns.actions'),
      render: (_: unknown, order: Order) => {
        const url = order.checkout_url;
        if (order.status !== 'unpaid' || !url) return null;
        return (
          <Space size="small">
            <Button type="link" size="small" onClick={() => openPage(url)}>
              {t('pay')}
            </Button>
            <Popconfirm
              title={t('cancelConfirm')}
              okText={t('cancelYes')}
              cancelText={t('cancelNo')}
              onConfirm={() => cancelNow(order)}
            >
              <Button type="link" size="small" danger>
                {t('cancel')}
              </Button>
            </Popconfirm>
          </Space>
        );
      },
    },
  ];

  return (
    <Card title={t('title')}>
      <Table<Order>
        rowKey="order_id"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={orders.isFetching}
        scroll={{ x: 820 }}
        pagination={pagination(data?.total)}
      />
    </Card>
  );
}
