import { useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Modal, Result, Spin } from 'antd';
import { DIALOG_WIDTH } from '../../../components/dialog-width.ts';
import { formatYuan } from '@skyway/shared/money';
import { isPayMethod, type Order } from '@skyway/shared/plans';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button.tsx';
import { openPage } from '../../../lib/page.ts';
import { USER_INFO_QUERY_KEY } from '../../../lib/user-info.ts';
import { useOrderInquiry } from '../api/order-inquiry.ts';
import { PayMethodName } from './pay-method-name.tsx';

/** How long the inquiry keeps asking about an unpaid order before it offers "Pay now" and "Check again". */
export const POLL_LIMIT_MS = 60_000;

interface Props {
  orderId: string;
  /** Called once the dialog has closed; the page then drops `order_id` from its address. */
  onClose: () => void;
}

/**
 * Opened when a checkout sends the browser back to `/buy?order_id=…`: it asks about the order every
 * two seconds for a minute while it is unpaid, and refreshes the user once it is paid.
 */
export function PaymentInquiryDialog({ orderId, onClose }: Props) {
  const { t } = useTranslation('buy');
  const client = useQueryClient();
  const [open, setOpen] = useState(true);
  const [round, setRound] = useState(0);
  const [gaveUp, setGaveUp] = useState(false);
  const order = useOrderInquiry(orderId, !gaveUp);
  const status = order.data?.status;

  useEffect(() => {
    const timer = setTimeout(() => setGaveUp(true), POLL_LIMIT_MS);
    return () => clearTimeout(timer);
  }, [round]);

  // The expiry, connections and subscription badge change with the payment.
  const paid = status === 'paid';
  useEffect(() => {
    if (paid) void client.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY });
  }, [paid, client]);

  const close = () => setOpen(false);
  const checkAgain = () => {
    setGaveUp(false);
    setRound((value) => value + 1);
    void order.refetch();
  };
  // A full page load: the checkout is the provider's page (or the server's own sandbox).
  const payNow = (url: string) => openPage(url);

  const closeButton = (
    <Button key="close" onClick={close}>
      {t('inquiry.close')}
    </Button>
  );
  const checkAgainButton = (
    <Button key="check" onClick={checkAgain} loading={order.isFetching}>
      {t('inquiry.checkAgain')}
    </Button>
  );

  let body: ReactNode;
  let footer: ReactNode[];
  if (order.data === undefined) {
    body = order.isError ? (
      <Result status="warning" title={t('inquiry.failed')} />
    ) : (
      <Result icon={<Spin size="large" />} title={t('inquiry.checking')} />
    );
    footer = order.isError ? [closeButton, checkAgainButton] : [closeButton];
  } else if (status === 'paid') {
    body = (
      <Result status="success" title={t('inquiry.paid')} subTitle={t('inquiry.paidHint')}>
        <OrderFacts order={order.data} />
        <p className="payment-inquiry__devices">{t('inquiry.devicesHint')}</p>
      </Result>
    );
    // Issue 16: a purchase ends in device slots, which the customer sets up next.
    footer = [
      <Button key="done" onClick={close}>
        {t('inquiry.done')}
      </Button>,
      <LinkButton key="devices" type="primary" to="/devices">
        {t('inquiry.devices')}
      </LinkButton>,
    ];
  } else if (status === 'unpaid' && !gaveUp && !order.isError) {
    // Pay now is offered while waiting too: a checkout left with Cancel comes back here unpaid.
    const url = order.data.checkout_url;
    body = (
      <Result icon={<Spin size="large" />} title={t('inquiry.waiting')} subTitle={t('inquiry.waitingHint')} />
    );
    footer = [
      closeButton,
      url ? (
        <Button key="pay" onClick={() => payNow(url)}>
          {t('inquiry.payNow')}
        </Button>
      ) : null,
    ];
  } else if (status === 'unpaid') {
    const url = order.data.checkout_url;
    body = <Result status="info" title={t('inquiry.notPaid')} subTitle={t('inquiry.notPaidHint')} />;
    footer = [
      checkAgainButton,
      url ? (
        <Button key="pay" type="primary" onClick={() => payNow(url)}>
          {t('inquiry.payNow')}
        </Button>
      ) : (
        closeButton
      ),
    ];
  } else {
    body = (
      <Result
        status="warning"
        title={status === 'expired' ? t('inquiry.expired') : t('inquiry.cancelled')}
        subTitle={t('inquiry.closedHint')}
      />
    );
    footer = [closeButton];
  }

  return (
    <Modal
      open={open}
      width={DIALOG_WIDTH}
      centered
      title={t('inquiry.title')}
      onCancel={close}
      afterClose={onClose}
      footer={footer}
    >
      <div className="payment-inquiry" data-status={order.data?.status ?? 'loading'} aria-live="polite">
        {body}
      </div>
    </Modal>
  );
}

function OrderFacts({ order }: { order: Order }) {
  const { t } = useTranslation('buy');
  return (
    <Descriptions
      column={1}
      size="small"
      colon={false}
      className="payment-inquiry__facts"
      items={[
        { key: 'order', label: t('inquiry.orderId'), children: order.order_id },
        { key: 'amount', label: t('inquiry.amount'), children: formatYuan(order.amount) },
        {
          key: 'pay_method',
          label: t('inquiry.payMethod'),
          children: isPayMethod(order.pay_method) ? <PayMethodName method={order.pay_method} /> : null,
        },
        { key: 'months', label: t('inquiry.months'), children: order.months },
        { key: 'connections', label: t('inquiry.connections'), children: order.connections },
      ]}
    />
  );
}
