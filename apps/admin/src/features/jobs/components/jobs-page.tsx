import { Alert, Card, Space, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { jobRunSchema } from '@skyway/shared/schemas/admin/operations';
import { when } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useCan } from '../../../lib/session.ts';
import { useJobs } from '../api/get-jobs.ts';

type JobRun = z.infer<typeof jobRunSchema>;

/** Each scheduled job: how often it runs on this instance, and its latest runs with their result. */
export function JobsPage() {
  const { t } = useTranslation(['jobs', 'common']);
  const can = useCan();
  const result = useJobs(can('jobs.view'));
  if (!can('jobs.view')) return <Forbidden />;
  if (result.error) return <Alert type="error" title={result.error.message} />;
  if (!result.data) return <Spin />;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {result.data.map((job) => (
        <Card
          key={job.name}
          size="small"
          title={job.name}
          extra={
            <Typography.Text type="secondary">
              {job.every_seconds > 0 ? t('every', { seconds: job.every_seconds }) : t('off')}
            </Typography.Text>
          }
        >
          <Table<JobRun>
            rowKey="started_at"
            size="small"
            pagination={{ pageSize: 5, hideOnSinglePage: true }}
            dataSource={job.runs}
            columns={[
              { title: t('started'), dataIndex: 'started_at', render: when },
              { title: t('finished'), dataIndex: 'finished_at', render: when },
              {
                title: t('result'),
                dataIndex: 'succeeded',
                render: (succeeded: boolean) =>
                  succeeded ? (
                    <Tag color="green">{t('common:succeeded')}</Tag>
                  ) : (
                    <Tag color="red">{t('common:failed')}</Tag>
                  ),
              },
              {
                title: t('common:details'),
                render: (_, run) => (
                  <Typography.Text code ellipsis style={{ maxWidth: 480 }}>
                    {run.error ?? JSON.stringify(run.result)}
                  </Typography.Text>
                ),
              },
            ]}
          />
        </Card>
      ))}
    </Space>
  );
}
