import { Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { when } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { PagedTable } from '../../../components/paged-table.tsx';
import { useCan } from '../../../lib/session.ts';
import { type AuditFilters as Filters, useAuditLog } from '../api/list-audit.ts';

const json = (value: unknown) =>
  value === null || value === undefined ? (
    '—'
  ) : (
    <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
      {JSON.stringify(value)}
    </Typography.Text>
  );

/** Every change made by staff, newest first, filtered by action or target. */
export function AuditPage() {
  const { t } = useTranslation(['audit', 'common']);
  const can = useCan();
  const [filters, setFilters] = useState<Filters>({});
  const list = useAuditLog(filters);
  if (!can('audit.view')) return <Forbidden />;
  const filter = (key: keyof Filters, placeholder: string) => (
    <Input.Search
      allowClear
      placeholder={placeholder}
      style={{ width: 220 }}
      onSearch={(value) => setFilters((current) => ({ ...current, [key]: value.trim() || undefined }))}
    />
  );
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        {filter('action', t('action'))}
        {filter('target_type', t('targetType'))}
        {filter('target_id', t('targetId'))}
      </Space>
      <PagedTable
        list={list}
        width={1100}
        exportName="audit-log"
        columns={[
          { title: t('common:time'), dataIndex: 'at', render: when, sortsList: true },
          {
            title: t('staffMember'),
            render: (_, entry) =>
              `${entry.staff_email} · ${t(`common:role_${entry.role}` as 'common:role_owner', { defaultValue: entry.role })}`,
            csv: (entry) => `${entry.staff_email} (${entry.role})`,
          },
          { title: t('action'), dataIndex: 'action' },
          {
            title: t('target'),
            render: (_, entry) => `${entry.target_type} ${entry.target_id}`,
            csv: (entry) => `${entry.target_type} ${entry.target_id}`,
          },
          {
            title: t('before'),
            dataIndex: 'before',
            render: json,
            csv: (entry) => JSON.stringify(entry.before),
          },
          {
            title: t('after'),
            dataIndex: 'after',
            render: json,
            csv: (entry) => JSON.stringify(entry.after),
          },
          {
            title: t('common:address'),
            dataIndex: 'ip',
            render: (ip: string | null) => ip ?? t('commandLine'),
          },
        ]}
      />
    </>
  );
}
