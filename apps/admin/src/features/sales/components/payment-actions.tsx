import { useQueryClient } from '@tanstack/react-query';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/session.ts';
import { type Choice, ReasonModal } from '../../../components/reason-modal.tsx';
import type { Payment } from '../api/list-payments.ts';
import { refundPayment } from '../api/refund-payment.ts';
import { settlePayment } from '../api/settle-payment.ts';

/** Lists and queues that show payments: refreshed after a refund or a settlement. */
export const refreshPayments = (client: ReturnType<typeof useQueryClient>) =>
  client.invalidateQueries({
    predicate: (q) => ['/payments', '/attention', '/orders', 'dashboard'].includes(String(q.queryKey[0])),
  });

/** What becomes of the order's time when its money goes back: taken back (the default) or kept. */
export function useTimeChoice(): Choice {
  const { t } = useTranslation('sales');
  return {
    label: t('refundTime'),
    initial: 'take_back',
    options: [
      { value: 'take_back', label: t('timeTakeBack') },
      { value: 'keep', label: t('timeKeep') },
    ],
  };
}

/**
 * Whether a payment's money goes back outside the back office: Epay and USDT gateways (providers
 * `epay:<id>`, `epusdt:<id>`) have no refund call, so the operator refunds in the gateway's own
 * merchant panel and records it here. Alipay face-to-face refunds through its provider.
 */
export const refundsOutside = (payment: Payment) => /^(epay|epusdt):/.test(payment.provider);

/**
 * What finance may do with a payment: refund it through its provider (taking the order's time
 * back or keeping it), or record a refund made outside for a gateway that has no refund call, or,
 * for one that gave no time, mark it settled by hand. A refund that could not reach the provider is
 * asked again under the same key.
 */
export function PaymentActions({ payment }: { payment: Payment }) {
  const { t } = useTranslation('sales');
  const can = useCan();
  const client = useQueryClient();
  const timeChoice = useTimeChoice();
  const [dialog, setDialog] = useState<'refund' | 'settle' | null>(null);
  const refunded = payment.refund?.status === 'succeeded' || payment.settlement !== null;
  const retry = payment.refund?.status === 'pending' && payment.refund.error !== null;
  const refused = payment.refund?.status === 'failed';
  const settleable =
    payment.settled_at === null && (refused || (payment.outcome !== 'credited' && !payment.refund));
  if (refunded && !retry) return null;
  const outside = refundsOutside(payment);
  const refundLabel = outside ? t('refundOutside') : retry ? t('refundAgain') : t('refund');
  const amount = { amount: (payment.amount / 100).toFixed(2), currency: payment.currency };
  return (
    <Space>
      {can('payments.refund') && (
        <Button size="small" danger onClick={() => setDialog('refund')}>
          {refundLabel}
        </Button>
      )}
      {can('attention.resolve') && settleable && (
        <Button size="small" onClick={() => setDialog('settle')}>
          {t('settle')}
        </Button>
      )}
      <ReasonModal
        open={dialog === 'refund'}
        title={outside ? t('refundOutside') : t('refund')}
        hint={outside ? t('refundOutsideHint', amount) : t('refundHint', amount)}
        choice={payment.outcome === 'credited' ? timeChoice : undefined}
        onClose={() => setDialog(null)}
        onSubmit={async ({ reason, choice }) => {
          const time = (choice ?? 'keep') as 'keep' | 'take_back';
          await refundPayment(payment.id, { reason, time }, outside);
          await refreshPayments(client);
        }}
      />
      <ReasonModal
        open={dialog === 'settle'}
        title={t('settle')}
        hint={t('settleHint')}
        onClose={() => setDialog(null)}
        onSubmit={async ({ reason }) => {
          await settlePayment(payment.id, { reason });
          await refreshPayments(client);
        }}
      />
    </Space>
  );
}
