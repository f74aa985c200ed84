import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Space,
  Spin,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatBytes } from '@skyway/shared/bytes';
import { useCoded } from '../../../lib/use-coded.ts';
import { money, when } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useCan } from '../../../lib/session.ts';
import { ATTENTION_KEY, type Attention, useAttention } from '../api/get-attention.ts';
import type { Payment } from '../api/list-payments.ts';
import { resolveDiscrepancy } from '../api/resolve-discrepancy.ts';
import { resolveNotice } from '../api/resolve-notice.ts';
import { actOnMail } from '../../../lib/act-on-mail.ts';
import { refreshPayments, useTimeChoice } from './payment-actions.tsx';
import { usePaymentColumns } from './payments-page.tsx';
import { type Choice, ReasonModal } from '../../../components/reason-modal.tsx';

type Notice = Attention['notices'][number];
type FailedMail = Attention['mail'][number];
type Discrepancy = Attention['traffic'][number];

const bytesMoved = (moved: { upload: number; download: number }) =>
  `↑ ${formatBytes(moved.upload)} · ↓ ${formatBytes(moved.download)}`;

/** A section's rows, all of them (the call caps each list), scrolling sideways below `width`. */
function SectionRows<T extends { id: string | number }>(props: {
  rows: T[];
  columns: TableColumnsType<T>;
  width: number;
}) {
  return (
    <Table<T>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={props.rows}
      columns={props.columns}
      scroll={{ x: props.width }}
    />
  );
}

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

/** A Resolve button and its dialog, which asks for what the member found (kept in the audit log). */
function ResolveButton(props: {
  hint: string;
  choice?: Choice;
  submit: (values: { reason: string; choice?: string }) => Promise<unknown>;
}) {
  const { t } = useTranslation(['sales', 'common']);
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        {t('resolve')}
      </Button>
      <ReasonModal
        open={open}
        title={t('resolve')}
        hint={props.hint}
        choice={props.choice}
        onClose={() => setOpen(false)}
        onSubmit={async (values) => {
          await props.submit(values);
          await refreshPayments(client);
        }}
      />
    </>
  );
}

/** Closes a provider's notice; money refunded elsewhere also says what becomes of the order's time. */
function ResolveNotice({ notice }: { notice: Notice }) {
  const { t } = useTranslation(['sales', 'common']);
  const timeChoice = useTimeChoice();
  const refund = notice.kind === 'refunded_elsewhere' && notice.payment_id !== null;
  return (
    <ResolveButton
      hint={notice.kind === 'dispute' ? t('disputeHint') : t('refundedElsewhereHint')}
      choice={refund ? timeChoice : undefined}
      submit={({ reason, choice }) =>
        resolveNotice(notice.id, { reason, ...(refund ? { time: choice as 'keep' | 'take_back' } : {}) })
      }
    />
  );
}

/**
 * Everything the operator has to deal with: payments that gave no time (refund or settle), refunds
 * that failed or wait to be asked again, what providers told us (disputes, refunds made in their
 * dashboard), and mail given up on in the last 7 days.
 */
export function AttentionPage() {
  const { t } = useTranslation(['sales', 'common']);
  const coded = useCoded();
  const { message } = App.useApp();
  const can = useCan();
  const client = useQueryClient();
  const result = useAttention(can('orders.view'));
  const paymentColumns = usePaymentColumns().map(({ sortsList: _sorts, ...column }) => column);
  if (!can('orders.view')) return <Forbidden />;
  if (result.error) return <Alert type="error" title={result.error.message} />;
  if (!result.data) return <Spin />;
  const { data } = result;
  const retryMail = async (mail: FailedMail) => {
    try {
      await actOnMail(mail.id, 'retry');
      message.success(t('common:done'));
      await client.invalidateQueries({ queryKey: ATTENTION_KEY });
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    }
  };
  const paymentTable = (rows: Payment[]) => (
    <SectionRows<Payment> rows={rows} columns={paymentColumns} width={1100} />
  );
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Section title={t('attentionPayments')} count={data.counts.payments} testId="attention-payments">
        <Typography.Paragraph type="secondary">{t('attentionPaymentsHint')}</Typography.Paragraph>
        {paymentTable(data.payments)}
      </Section>
      <Section title={t('attentionRefunds')} count={data.counts.refunds} testId="attention-refunds">
        {paymentTable(data.refunds)}
      </Section>
      <Section title={t('attentionNotices')} count={data.counts.notices} testId="attention-notices">
        <SectionRows<Notice>
          rows={data.notices}
          width={900}
          columns={[
            { title: t('common:time'), dataIndex: 'created_at', render: when },
            {
              title: t('kind'),
              dataIndex: 'kind',
              render: (kind: string) => <Tag color="red">{coded('notice', kind)}</Tag>,
            },
            {
              title: t('common:email'),
              dataIndex: 'email',
              render: (email: string | null, notice) =>
                email && notice.user_id ? (
                  <Link to={`/users/${notice.user_id}`}>{email}</Link>
                ) : (
                  t('common:none')
                ),
            },
            { title: t('common:amount'), render: (_, notice) => money(notice.amount, notice.currency) },
            { title: t('common:providerReference'), dataIndex: 'provider_object_id' },
            {
              title: t('common:details'),
              dataIndex: 'detail',
              render: (detail: unknown) =>
                detail ? <Typography.Text code>{JSON.stringify(detail)}</Typography.Text> : t('common:none'),
            },
            {
              title: '',
              key: 'actions',
              render: (_, notice) => can('attention.resolve') && <ResolveNotice notice={notice} />,
            },
          ]}
        />
      </Section>
      <Section title={t('attentionTraffic')} count={data.counts.traffic} testId="attention-traffic">
        <SectionRows<Discrepancy>
          rows={data.traffic}
          width={800}
          columns={[
            { title: t('hour'), dataIndex: 'hour', render: when },
            { title: t('common:nodeName'), dataIndex: 'node_name' },
            { title: t('reportedTraffic'), dataIndex: 'reported', render: bytesMoved },
            { title: t('ledgerTraffic'), dataIndex: 'ledger', render: bytesMoved },
            {
              title: '',
              key: 'actions',
              render: (_, item) =>
                can('attention.resolve') && (
                  <ResolveButton
                    hint={t('trafficDiscrepancyHint')}
                    submit={({ reason }) => resolveDiscrepancy(item.id, { reason })}
                  />
                ),
            },
          ]}
        />
      </Section>
      <Section title={t('attentionMail')} count={data.counts.mail} testId="attention-mail">
        <SectionRows<FailedMail>
          rows={data.mail}
          width={800}
          columns={[
            { title: t('common:time'), dataIndex: 'created_at', render: when },
            { title: t('common:to'), dataIndex: 'to' },
            { title: t('common:template'), dataIndex: 'template' },
            { title: t('common:error'), dataIndex: 'error', ellipsis: true },
            {
              title: '',
              key: 'actions',
              render: (_, mail) =>
                can('mail.retry') && (
                  <Button size="small" onClick={() => void retryMail(mail)}>
                    {t('common:retry')}
                  </Button>
                ),
            },
          ]}
        />
      </Section>
    </Space>
  );
}
