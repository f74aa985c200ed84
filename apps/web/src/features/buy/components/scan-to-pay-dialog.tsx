import { useState } from 'react';
import { Button, Descriptions, Modal, QRCode, Result } from 'antd';
import { formatDateTime } from '@skyway/shared/dates';
import { formatYuan } from '@skyway/shared/money';
import type { CreatedOrder, PayMethod } from '@skyway/shared/plans';
import { useTranslation } from 'react-i18next';
import { DIALOG_WIDTH } from '../../../components/dialog-width.ts';
import { openPage } from '../../../lib/page.ts';
import { useNowSeconds } from '../../../lib/use-now-seconds.ts';
import { useOrderInquiry } from '../api/order-inquiry.ts';
import { PayMethodName } from './pay-method-name.tsx';

const QR_SIZE = 200;
const pad = (n: number) => String(n).padStart(2, '0');

/** `mm:ss` (or `h:mm:ss`) of a number of seconds. */
export function formatCountdown(seconds: number): string {
  const left = Math.max(seconds, 0);
  const hours = Math.floor(left / 3600);
  const clock = `${pad(Math.floor((left % 3600) / 60))}:${pad(left % 60)}`;
  return hours > 0 ? `${hours}:${clock}` : clock;
}

interface Props {
  order: CreatedOrder;
  payMethod: PayMethod;
  /** The buyer says they have paid, or the order reads paid: the payment inquiry takes over. */
  onPaid: (orderId: string) => void;
  /** Called once the dialog has closed. */
  onClose: () => void;
}

/**
 * On a computer, a gateway's checkout as a QR code for the buyer's phone, with the amount and the
 * time left to the order's deadline; the order is asked about meanwhile, and once paid the payment
 * inquiry shows it. Past the deadline the code is marked expired.
 */
export function ScanToPayDialog({ order, payMethod, onPaid, onClose }: Props) {
  const { t } = useTranslation('buy');
  const [open, setOpen] = useState(true);
  const [paidSaid, setPaidSaid] = useState(false);
  const now = useNowSeconds(1000);
  const left = order.latest_pay_time - now;
  const expired = left <= 0;
  const inquiry = useOrderInquiry(order.order_id, !expired);
  // Paid (read here, or said by the buyer): the dialog closes and the payment inquiry takes over.
  const paid = inquiry.data?.status === 'paid' || paidSaid;

  return (
    <Modal
      open={open && !paid}
      width={DIALOG_WIDTH}
      centered
      title={t('scan.title')}
      onCancel={() => setOpen(false)}
      afterClose={() => (paid ? onPaid(order.order_id) : onClose())}
      footer={[
        <Button key="page" onClick={() => openPage(order.checkout_url)} disabled={expired}>
          {t('scan.openPage')}
        </Button>,
        <Button key="paid" type="primary" onClick={() => setPaidSaid(true)}>
          {t('scan.paid')}
        </Button>,
      ]}
    >
      <div className="scan-to-pay" data-testid="scan-to-pay">
        {expired ? (
          <Result status="warning" title={t('scan.expired')} />
        ) : (
          <>
            <QRCode
              className="scan-to-pay__qr"
              value={order.checkout_url}
              size={QR_SIZE}
              aria-label={t('scan.qr')}
              role="img"
            />
            <p className="scan-to-pay__hint">{t('scan.hint')}</p>
          </>
        )}
        <Descriptions
          column={1}
          size="small"
          colon={false}
          items={[
            {
              key: 'amount',
              label: t('scan.amount'),
              children: (
                <span data-testid="scan-amount">
                  {formatYuan(order.amount)}
                  {order.fee > 0 && ` (${t('scan.feeIncluded', { fee: formatYuan(order.fee) })})`}
                </span>
              ),
            },
            { key: 'method', label: t('scan.payMethod'), children: <PayMethodName method={payMethod} /> },
            {
              key: 'left',
              label: t('scan.timeLeft'),
              children: (
                <span data-testid="scan-countdown" role="timer">
                  {formatCountdown(left)}
                </span>
              ),
            },
            { key: 'deadline', label: t('scan.deadline'), children: formatDateTime(order.latest_pay_time) },
          ]}
        />
        {payMethod === 'usdt' && <p className="scan-to-pay__note">{t('payment.usdtNote')}</p>}
      </div>
    </Modal>
  );
}
