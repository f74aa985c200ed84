import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Badge, Button, Card, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import type { attentionSchema } from '@skyway/shared/schemas/admin/sales';
import { api } from '../api.ts';
import { useCoded } from '../coded.ts';
import { money, when } from '../format.ts';
import { Forbidden } from '../layout.tsx';
import { useCan } from '../session.ts';
import { type Payment, refreshPayments, useTimeChoice } from './payment-actions.tsx';
import { usePaymentColumns } from './payments.tsx';
import { ReasonModal } from './reason-modal.tsx';

type Attention = z.infer<typeof attentionSchema>;
type Notice = Attention['notices'][number];
type FailedMail = Attention['mail'][number];

function Section(props: { title: string; count: number; testId: string; children: React.ReactNode }) {
  return (
    <Card
      size="small"
      data-testid={props.testId}
      title={
        <Space>
          {props.title}
          <Badge count={props.count} showZero color={props.count ? 'red' : 'green'} />
        </Space>
      }
    >
      {props.children}
    </Card>
  );
}

/** Closes a provider's notice; money refunded elsewhere also says what becomes of the order's time. */
function ResolveNotice({ notice }: { notice: Notice }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const timeChoice = useTimeChoice();
  const [open, setOpen] = useState(false);
  const refund = notice.kind === 'refunded_elsewhere' && notice.payment_id !== null;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        {t('resolve')}
      </Button>
      <ReasonModal
        open={open}
        title={t('resolve')}
        hint={notice.kind === 'dispute' ? t('disputeHint') : t('refundedElsewhereHint')}
        choice={refund ? timeChoice : undefined}
        onClose={() => setOpen(false)}
        onSubmit={async ({ reason, choice }) => {
          await api('POST', `/notices/${notice.id}/resolve`, { reason, ...(refund ? { time: choice } : {}) });
          await refreshPayments(client);
        }}
      />
    </>
  );
}

/**
 * Everything the operator has to deal with: payments that gave no time (refund or settle), refunds
 * that failed or wait to be asked again, what providers told us (disputes, refunds made in their
 * dashboard), and mail given up on in the last 7 days.
 */
export function AttentionPage() {
  const { t } = useTranslation();
  const coded = useCoded();
  const { message } = App.useApp();
  const can = useCan();
  const client = useQueryClient();
  const result = useQuery({
    queryKey: ['/attention'],
    queryFn: () => api<Attention>('GET', '/attention'),
    enabled: can('orders.view'),
  });
  const paymentColumns = usePaymentColumns().map(({ sortsList: _sorts, ...column }) => column);
  if (!can('orders.view')) return <Forbidden />;
  if (result.error) return <Alert type="error" title={result.error.message} />;
  if (!result.data) return <Spin />;
  const { data } = result;
  const retryMail = async (mail: FailedMail) => {
    try {
      await api('POST', `/mail/${mail.id}/retry`);
      message.success(t('done'));
      await client.invalidateQueries({ queryKey: ['/attention'] });
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    }
  };
  const paymentTable = (rows: Payment[]) => (
    <Table<Payment>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={rows}
      columns={paymentColumns}
      scroll={{ x: 1100 }}
    />
  );
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Section title={t('attentionPayments')} count={data.counts.payments} testId="attention-payments">
        <Typography.Paragraph type="secondary">{t('attentionPaymentsHint')}</Typography.Paragraph>
        {paymentTable(data.payments)}
      </Section>
      <Section title={t('attentionRefunds')} count={data.counts.refunds} testId="attention-refunds">
        {paymentTable(data.refunds)}
      </Section>
      <Section title={t('attentionNotices')} count={data.counts.notices} testId="attention-notices">
        <Table<Notice>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={data.notices}
          scroll={{ x: 900 }}
          columns={[
            { title: t('time'), dataIndex: 'created_at', render: when },
            {
              title: t('kind'),
              dataIndex: 'kind',
              render: (kind: string) => <Tag color="red">{coded('notice', kind)}</Tag>,
            },
            {
              title: t('email'),
              dataIndex: 'email',
              render: (email: string | null, notice) =>
                email && notice.user_id ? <Link to={`/users/${notice.user_id}`}>{email}</Link> : t('none'),
            },
            { title: t('amount'), render: (_, notice) => money(notice.amount, notice.currency) },
            { title: t('providerReference'), dataIndex: 'provider_object_id' },
            {
              title: t('details'),
              dataIndex: 'detail',
              render: (detail: unknown) =>
                detail ? <Typography.Text code>{JSON.stringify(detail)}</Typography.Text> : t('none'),
            },
            {
              title: '',
              key: 'actions',
              render: (_, notice) => can('attention.resolve') && <ResolveNotice notice={notice} />,
            },
          ]}
        />
      </Section>
      <Section title={t('attentionMail')} count={data.counts.mail} testId="attention-mail">
        <Table<FailedMail>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={data.mail}
          scroll={{ x: 800 }}
          columns={[
            { title: t('time'), dataIndex: 'created_at', render: when },
            { title: t('to'), dataIndex: 'to' },
            { title: t('template'), dataIndex: 'template' },
            { title: t('error'), dataIndex: 'error', ellipsis: true },
            {
              title: '',
              key: 'actions',
              render: (_, mail) =>
                can('mail.retry') && (
                  <Button size="small" onClick={() => void retryMail(mail)}>
                    {t('retry')}
                  </Button>
                ),
            },
          ]}
        />
      </Section>
    </Space>
  );
}
