import { Card, Col, Row, Statistic, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/page-meta.ts';

interface InvitationRow {
  account: string;
  complete_time: number;
  trial_minute: number;
  claimed: boolean;
}

/** The invitations summary and list with the spec's labels; the data arrives with the invite calls. */
export function InvitationsPage() {
  const { t } = useTranslation('invitations');
  usePageMeta(t('title'));
  const columns: TableColumnsType<InvitationRow> = [
    { key: 'account', dataIndex: 'account', title: t('columns.account') },
    { key: 'complete_time', dataIndex: 'complete_time', title: t('columns.completeTime') },
    { key: 'trial_minute', dataIndex: 'trial_minute', title: t('columns.trialMinutes') },
    { key: 'claimed', dataIndex: 'claimed', title: t('columns.status') },
  ];
  const stats = [
    { key: 'total', label: t('stats.total') },
    { key: 'unclaimedUsers', label: t('stats.unclaimedUsers') },
    { key: 'unclaimedMinutes', label: t('stats.unclaimedMinutes') },
  ];
  return (
    <Row gutter={[16, 16]}>
      {stats.map((stat) => (
        <Col key={stat.key} xs={24} sm={8}>
          <Card>
            <Statistic title={stat.label} value="–" />
          </Card>
        </Col>
      ))}
      <Col span={24}>
        <Card title={t('title')}>
          <Table<InvitationRow> rowKey="account" columns={columns} dataSource={[]} scroll={{ x: 560 }} />
        </Card>
      </Col>
    </Row>
  );
}
