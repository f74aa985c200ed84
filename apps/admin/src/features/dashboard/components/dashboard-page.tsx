import { lazy, Suspense } from 'react';
import { Alert, Card, Col, Row, Spin, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { money, when } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useCan } from '../../../lib/session.ts';
import { useDaily } from '../api/get-daily.ts';
import { type Dashboard, useDashboard } from '../api/get-dashboard.ts';

// ECharts is a chunk of its own, fetched when the dashboard draws.
const DashboardChart = lazy(() => import('./dashboard-chart.tsx'));
const WINDOWS = [
  ['today', 'today'],
  ['7d', 'last7'],
  ['30d', 'last30'],
] as const;

/** The business at a glance. */
export function DashboardPage() {
  const { t } = useTranslation(['dashboard', 'common']);
  const can = useCan();
  const result = useDashboard(can('dashboard.view'));
  const daily = useDaily(can('dashboard.view'));
  if (!can('dashboard.view')) return <Forbidden />;
  if (result.error) return <Alert type="error" title={result.error.message} />;
  if (!result.data) return <Spin />;
  const data = result.data;
  const perWindow = (label: string, figures: Dashboard['paid_orders']) => (
    <Card title={label} size="small">
      <Row gutter={16}>
        {WINDOWS.map(([window, name]) => (
          <Col span={8} key={window}>
            <Statistic title={t(name)} value={figures[window]} />
          </Col>
        ))}
      </Row>
    </Card>
  );
  return (
    <Row gutter={[16, 16]} data-testid="dashboard">
      <Col xs={24} xl={12}>
        {perWindow(t('paidOrders'), data.paid_orders)}
      </Col>
      <Col xs={24} xl={12}>
        {perWindow(t('newAccounts'), data.new_accounts)}
      </Col>
      <Col xs={24} xl={12}>
        {perWindow(t('trialsClaimed'), data.trials_claimed)}
      </Col>
      <Col xs={24} xl={12}>
        <Card title={t('trialConversion')} size="small">
          <Statistic
            value={
              data.trial_conversion.trials
                ? (100 * data.trial_conversion.converted) / data.trial_conversion.trials
                : 0
            }
            precision={1}
            suffix={`% (${data.trial_conversion.converted} / ${data.trial_conversion.trials})`}
          />
        </Card>
      </Col>
      <Col xs={24}>
        <Card title={t('last30')} size="small">
          {daily.data ? (
            <Suspense fallback={<Spin />}>
              <DashboardChart days={daily.data} />
            </Suspense>
          ) : (
            <Spin />
          )}
        </Card>
      </Col>
      <Col xs={24}>
        <Card title={t('revenue')} size="small">
          <Table
            rowKey={(row) => `${row.window}-${row.provider}-${row.currency}`}
            size="small"
            pagination={false}
            dataSource={data.revenue}
            columns={[
              {
                title: t('common:time'),
                dataIndex: 'window',
                render: (window: string) => t(WINDOWS.find(([w]) => w === window)?.[1] ?? 'today'),
              },
              { title: t('common:provider'), dataIndex: 'provider' },
              { title: t('common:amount'), render: (_, row) => money(row.amount, row.currency) },
              { title: t('common:payments'), dataIndex: 'payments' },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card
          title={t('activeSubscribers')}
          size="small"
          extra={
            <Typography.Text type="secondary">
              {data.subscribers_counted_at ? t('countedAt', { time: when(data.subscribers_counted_at) }) : ''}
            </Typography.Text>
          }
        >
          <Row gutter={16}>
            {data.active_subscribers.map((row) => (
              <Col span={8} key={row.subscribe_type}>
                <Statistic
                  title={t(`common:subscribeType${row.subscribe_type}` as 'common:subscribeType1')}
                  value={row.accounts}
                />
              </Col>
            ))}
          </Row>
        </Card>
      </Col>
      <Col xs={12} xl={6}>
        <Card size="small">
          <Statistic title={t('renewalsDue')} value={data.renewals_due_7d} />
        </Card>
      </Col>
      <Col xs={12} xl={6}>
        <Card size="small">
          <Statistic title={t('common:attention')} value={data.attention} />
        </Card>
      </Col>
    </Row>
  );
}
