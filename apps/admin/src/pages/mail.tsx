import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { MAIL_STATUSES, type MailStatus } from '@skyway/shared/mail';
import type { mailEntrySchema } from '@skyway/shared/schemas/admin/operations';
import { api } from '../api.ts';
import { when } from '../format.ts';
import { Forbidden } from '../layout.tsx';
import { PagedTable } from '../paged-table.tsx';
import { useCan } from '../session.ts';
import { usePageList } from '../use-page-list.ts';

type Mail = z.infer<typeof mailEntrySchema>;
const STATUS_COLORS: Record<MailStatus, string> = {
  pending: 'blue',
  sent: 'green',
  logged: 'default',
  failed: 'red',
  expired: 'orange',
  withheld: 'default',
  cancelled: 'default',
};

/** The outbox, newest first, by status, template or recipient; a failed message can be sent again. */
export function MailPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = useCan();
  const client = useQueryClient();
  const [filters, setFilters] = useState<{ status?: MailStatus; template?: string; to?: string }>({});
  const list = usePageList<Mail>('/mail', filters, { sortable: true });
  if (!can('mail.view')) return <Forbidden />;
  /** Sends a failed message again (`retry`) or stops a waiting one (`cancel`). */
  const act = async (mail: Mail, action: 'retry' | 'cancel') => {
    try {
      await api('POST', `/mail/${mail.id}/${action}`);
      message.success(t('done'));
      await client.invalidateQueries({ queryKey: ['/mail'] });
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          aria-label={t('status')}
          placeholder={t('status')}
          style={{ width: 160 }}
          options={MAIL_STATUSES.map((status) => ({ value: status, label: t(`mail_${status}`) }))}
          onChange={(status?: MailStatus) => setFilters((current) => ({ ...current, status }))}
        />
        <Input.Search
          allowClear
          placeholder={t('template')}
          style={{ width: 200 }}
          onSearch={(template) =>
            setFilters((current) => ({ ...current, template: template.trim() || undefined }))
          }
        />
        <Input.Search
          allowClear
          placeholder={t('recipientHint')}
          style={{ width: 280 }}
          onSearch={(to) => setFilters((current) => ({ ...current, to: to.trim() || undefined }))}
        />
      </Space>
      <PagedTable
        list={list}
        width={1000}
        exportName="mail"
        columns={[
          { title: t('createdAt'), dataIndex: 'created_at', render: when, sortsList: true },
          {
            title: t('to'),
            dataIndex: 'to',
            render: (to: string, mail) =>
              mail.user_id && can('users.view') ? <Link to={`/users/${mail.user_id}`}>{to}</Link> : to,
          },
          { title: t('template'), dataIndex: 'template' },
          { title: t('subject'), dataIndex: 'subject' },
          {
            title: t('status'),
            dataIndex: 'status',
            render: (status: MailStatus) => <Tag color={STATUS_COLORS[status]}>{t(`mail_${status}`)}</Tag>,
          },
          { title: t('attempts'), dataIndex: 'attempts' },
          { title: t('error'), dataIndex: 'error', ellipsis: true },
          { title: t('sentAt'), dataIndex: 'sent_at', render: when },
          {
            key: 'actions',
            render: (_, mail) => {
              if (mail.status === 'failed' && can('mail.retry')) {
                return (
                  <Button size="small" onClick={() => void act(mail, 'retry')}>
                    {t('retry')}
                  </Button>
                );
              }
              if (mail.status === 'pending' && can('mail.cancel')) {
                return (
                  <Button size="small" danger onClick={() => void act(mail, 'cancel')}>
                    {t('cancelMail')}
                  </Button>
                );
              }
              return null;
            },
          },
        ]}
      />
    </>
  );
}
