import type { ReactNode } from 'react';
import { Card, Pagination, Spin, Table, type TableColumnsType } from 'antd';
import type { Order } from '@skyway/shared/plans';
import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query.ts';
import { useServerPagination } from '../../../lib/use-server-pagination.ts';
import { useCancelOrder, useOrders } from '../api/orders.ts';
import { NoOrders } from './no-orders.tsx';
import { OrderActions } from './order-actions.tsx';
import { OrderCards } from './order-cards.tsx';
import { useOrderFields, type OrderFieldKey } from './order-fields.tsx';
import './orders-page.css';

/** The spec's columns, with the payment method before the status. */
const COLUMNS: OrderFieldKey[] = [
  'order_id',
  'months',
  'pay_time',
  'latest_pay_time',
  'amount',
  'pay_method',
  'status',
];

/**
 * My orders: the server-paginated list, a table on wide screens and cards on phones; an unpaid order
 * can be paid or cancelled from its row or card.
 */
export function OrdersPage() {
  const { t } = useTranslation('orders');
  usePageMeta(t('title'));
  const phone = useMediaQuery(MOBILE_QUERY);
  const fields = useOrderFields();
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

  const columns: TableColumnsType<Order> = [
    ...COLUMNS.map((key) => ({
      key,
      title: fields[key].label,
      render: (_: unknown, order: Order) => fields[key].render(order),
    })),
    {
      key: 'actions',
      title: t('columns.actions'),
      render: (_: unknown, order: Order) => <OrderActions order={order} onCancel={cancelNow} compact />,
    },
  ];

  let list: ReactNode;
  if (data?.total === 0) {
    list = <NoOrders />;
  } else if (phone) {
    list = (
      <Spin spinning={orders.isFetching}>
        <div className="orders-page__cards">
          <OrderCards orders={data?.list ?? []} onCancel={cancelNow} />
          <Pagination {...pagination(data?.total)} align="center" hideOnSinglePage />
        </div>
      </Spin>
    );
  } else {
    list = (
      <Table<Order>
        rowKey="order_id"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={orders.isFetching}
        scroll={{ x: 920 }}
        pagination={pagination(data?.total)}
      />
    );
  }

  return (
    // On a phone the cards need the width more than the frame around them does.
    <Card title={t('title')} styles={phone ? { body: { padding: 12 } } : undefined}>
      {list}
    </Card>
  );
}
