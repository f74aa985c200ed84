import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PAYMENT_OUTCOMES } from '@skyway/shared/schemas/admin/sales';
import { useCoded } from '../../../lib/use-coded.ts';
import { money, when } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { type ListColumn, PagedTable } from '../../../components/paged-table.tsx';
import { providerColumn } from './provider-column.ts';
import { useCan } from '../../../lib/session.ts';
import { type Payment, usePayments } from '../api/list-payments.ts';
import { PaymentActions } from './payment-actions.tsx';
import { useSalesFilters } from './sales-filters.tsx';

/** A payment's state for the operator: its outcome, and its refund or settlement. */
export function PaymentState({ payment }: { payment: Payment }) {
  const { t } = useTranslation(['sales', 'common']);
  const coded = useCoded();
  return (
    <Space size={4} wrap>
      <Tag color={payment.outcome === 'credited' ? 'green' : 'orange'}>
        {coded('outcome', payment.outcome)}
      </Tag>
      {payment.refund && (
        <Tag color={payment.refund.status === 'failed' ? 'red' : 'purple'}>
          {coded('refund', payment.refund.status)}
        </Tag>
      )}
      {payment.settlement === 'reconciled' && <Tag>{t('settlement_reconciled')}</Tag>}
      {payment.refund?.error && (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {payment.refund.error}
        </Typography.Text>
      )}
    </Space>
  );
}

/** The columns of a payment wherever payments are listed (this screen, the attention queue). */
export function usePaymentColumns(): ListColumn<Payment>[] {
  const { t } = useTranslation(['sales', 'common']);
  return [
    { title: t('common:time'), dataIndex: 'created_at', render: when, sortsList: true },
    {
      title: t('common:email'),
      dataIndex: 'email',
      render: (email: string, payment) => <Link to={`/users/${payment.user_id}`}>{email}</Link>,
    },
    { title: t('common:order'), dataIndex: 'order_id' },
    providerColumn(t('common:provider')),
    { title: t('common:providerReference'), dataIndex: 'provider_payment_id' },
    {
      title: t('common:amount'),
      render: (_, payment) => money(payment.amount, payment.currency),
      csv: (payment) => (payment.amount / 100).toFixed(2),
    },
    { title: t('currency'), dataIndex: 'currency' },
    {
      title: t('common:outcome'),
      dataIndex: 'outcome',
      render: (_, payment) => <PaymentState payment={payment} />,
      csv: (payment) =>
        [payment.outcome, payment.refund?.status && `refund ${payment.refund.status}`, payment.settlement]
          .filter(Boolean)
          .join(' / '),
    },
    { title: '', key: 'actions', render: (_, payment) => <PaymentActions payment={payment} /> },
  ];
}

/** Every payment a provider reported, by outcome, provider, buyer and days, with refunds. */
export function PaymentsPage() {
  const can = useCan();
  const { filters, bar } = useSalesFilters({ key: 'outcome', codes: PAYMENT_OUTCOMES, prefix: 'outcome' });
  const list = usePayments(filters);
  const columns = usePaymentColumns();
  if (!can('orders.view')) return <Forbidden />;
  return (
    <>
      {bar}
      <PagedTable list={list} columns={columns} width={1200} exportName="payments" testId="payments" />
    </>
  );
}
