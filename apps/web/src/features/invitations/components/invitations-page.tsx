import { CopyOutlined, WalletOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Input, Row, Space, Statistic, Table, type TableColumnsType } from 'antd';
import { formatDateTime } from '@skyway/shared/dates';
import { type InvitedAccount, shareLink } from '@skyway/shared/invitations';
import { useTranslation } from 'react-i18next';
import { useFormatMinutes } from '../../../lib/durations.ts';
import { useInviteConf } from '../../../lib/use-invite-conf.ts';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { useSession } from '../../../lib/session.ts';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { useCopy } from '../../../lib/use-copy.ts';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query.ts';
import { useServerPagination } from '../../../lib/use-server-pagination.ts';
import { useInvitations, useWithdrawRewards } from '../api/invitations.ts';
import { ClaimStatusTag } from './claim-status-tag.tsx';
import { InvitationCards } from './invitation-cards.tsx';

/**
 * My invitations: summary, share link with what each invitation earns, the server-paginated list
 * (a table, cards on a phone; with none yet, a way to share the link) and the withdraw button.
 */
export function InvitationsPage() {
  const { t } = useTranslation('invitations');
  usePageMeta(t('title'));
  const { user } = useSession();
  const narrow = useMediaQuery(MOBILE_QUERY);
  const formatMinutes = useFormatMinutes();
  const { page, size, pagination } = useServerPagination();
  const invitations = useInvitations(page, size);
  const conf = useInviteConf();
  const withdraw = useWithdrawRewards();
  const copy = useCopy();
  const data = invitations.data;

  const inviteCode = data?.invite_code || user?.invite_code || '';
  const link = inviteCode ? shareLink(window.location.origin, inviteCode) : '';
  const unclaimedMinutes = data?.unclaimed_minutes ?? 0;

  const copyLink = () => copy(link);

  async function withdrawNow() {
    try {
      const result = await withdraw.mutateAsync();
      showSuccess(t('withdrawn', { duration: formatMinutes(result.trial_time) }), MESSAGE_SECONDS);
    } catch {
      // The api client has shown the server's message.
    }
  }

  const columns: TableColumnsType<InvitedAccount> = [
    { key: 'account', dataIndex: 'account', title: t('columns.account') },
    {
      key: 'complete_time',
      dataIndex: 'complete_time',
      title: t('columns.completeTime'),
      render: (value: number) => formatDateTime(value),
    },
    {
      key: 'trial_minute',
      dataIndex: 'trial_minute',
      title: t('columns.trialMinutes'),
      render: (minutes: number) => formatMinutes(minutes),
    },
    {
      key: 'claimed',
      dataIndex: 'claimed',
      title: t('columns.status'),
      render: (claimed: boolean) => <ClaimStatusTag claimed={claimed} />,
    },
  ];
  const stats = [
    { key: 'total', label: t('stats.total'), value: data?.total },
    { key: 'unclaimedUsers', label: t('stats.unclaimedUsers'), value: data?.unclaimed_users },
    {
      key: 'unclaimedMinutes',
      label: t('stats.unclaimedMinutes'),
      value: data && formatMinutes(data.unclaimed_minutes),
    },
  ];
  // While the config is unknown (or could not be read) the hint says what an invitation earns
  // without the amount.
  const earnings = conf.data
    ? t('share.earn', { duration: formatMinutes(conf.data.invite_minute) })
    : t('share.hint');

  let list;
  if (data?.total === 0) {
    list = (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty.text')}>
        <Button type="primary" icon={<CopyOutlined />} disabled={!link} onClick={() => void copyLink()}>
          {t('empty.copy')}
        </Button>
      </Empty>
    );
  } else if (narrow) {
    list = (
      <InvitationCards
        rows={data?.list ?? []}
        loading={invitations.isFetching}
        pagination={pagination(data?.total)}
      />
    );
  } else {
    list = (
      <Table<InvitedAccount>
        rowKey={(row) => `${row.account}-${row.complete_time}`}
        columns={columns}
        dataSource={data?.list ?? []}
        loading={invitations.isFetching}
        scroll={{ x: 560 }}
        pagination={pagination(data?.total)}
      />
    );
  }

  return (
    <Row gutter={[16, 16]}>
      {stats.map((stat) => (
        <Col key={stat.key} xs={24} sm={8}>
          <Card>
            <Statistic title={stat.label} value={stat.value ?? '–'} />
          </Card>
        </Col>
      ))}
      <Col span={24}>
        <Card title={t('share.title')}>
          <p>{earnings}</p>
          <Space.Compact block>
            <Input readOnly value={link} aria-label={t('share.link')} data-testid="share-link" />
            <Button type="primary" icon={<CopyOutlined />} disabled={!link} onClick={() => void copyLink()}>
              {t('share.copy')}
            </Button>
          </Space.Compact>
        </Card>
      </Col>
      <Col span={24}>
        <Card
          title={t('list')}
          extra={
            <Button
              icon={<WalletOutlined />}
              disabled={unclaimedMinutes === 0}
              loading={withdraw.isPending}
              onClick={() => void withdrawNow()}
            >
              {t('withdraw')}
            </Button>
          }
        >
          {list}
        </Card>
      </Col>
    </Row>
  );
}
