import { Button, Popconfirm, Space } from 'antd';
import type { Order } from '@skyway/shared/plans';
import { useTranslation } from 'react-i18next';
import { openPage } from '../../../lib/page.ts';

interface Props {
  order: Order;
  onCancel: (order: Order) => Promise<void>;
  /** Link-sized in a table row; full buttons, easy to tap, on a phone's card. */
  compact: boolean;
}

/** Pay (at the order's checkout) and Cancel (after a confirmation), while the order can be paid. */
export function OrderActions({ order, onCancel, compact }: Props) {
  const { t } = useTranslation('orders');
  const url = order.checkout_url;
  if (order.status !== 'unpaid' || !url) return null;
  return (
    <Space size="small">
      <Button
        type={compact ? 'link' : 'primary'}
        size={compact ? 'small' : 'middle'}
        onClick={() => openPage(url)}
      >
        {t('pay')}
      </Button>
      <Popconfirm
        title={t('cancelConfirm')}
        okText={t('cancelYes')}
        cancelText={t('cancelNo')}
        onConfirm={() => onCancel(order)}
      >
        <Button type={compact ? 'link' : 'default'} size={compact ? 'small' : 'middle'} danger>
          {t('cancel')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
