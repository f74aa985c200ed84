import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MAIL_STATUSES, type MailStatus } from '@skyway/shared/mail';
import { when } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { PagedTable } from '../../../components/paged-table.tsx';
import { useCan } from '../../../lib/session.ts';
import { actOnMail } from '../../../lib/act-on-mail.ts';
import { MAIL_KEY, type Mail, type MailFilters, useMail } from '../api/list-mail.ts';

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
  const { t } = useTranslation(['mail', 'common']);
  const { message } = App.useApp();
  const can = useCan();
  const client = useQueryClient();
  const [filters, setFilters] = useState<MailFilters>({});
  const list = useMail(filters);
  if (!can('mail.view')) return <Forbidden />;
  /** Sends a failed message again (`retry`) or stops a waiting one (`cancel`). */
  const act = async (mail: Mail, action: 'retry' | 'cancel') => {
    try {
      await actOnMail(mail.id, action);
      message.success(t('common:done'));
      await client.invalidateQueries({ queryKey: MAIL_KEY });
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          aria-label={t('common:status')}
          placeholder={t('common:status')}
          style={{ width: 160 }}
          options={MAIL_STATUSES.map((status) => ({ value: status, label: t(`common:mail_${status}`) }))}
          onChange={(status?: MailStatus) => setFilters((current) => ({ ...current, status }))}
        />
        <Input.Search
          allowClear
          placeholder={t('common:template')}
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
          { title: t('common:createdAt'), dataIndex: 'created_at', render: when, sortsList: true },
          {
            title: t('common:to'),
            dataIndex: 'to',
            render: (to: string, mail) =>
              mail.user_id && can('users.view') ? <Link to={`/users/${mail.user_id}`}>{to}</Link> : to,
          },
          { title: t('common:template'), dataIndex: 'template' },
          { title: t('common:subject'), dataIndex: 'subject' },
          {
            title: t('common:status'),
            dataIndex: 'status',
            render: (status: MailStatus) => (
              <Tag color={STATUS_COLORS[status]}>{t(`common:mail_${status}`)}</Tag>
            ),
          },
          { title: t('common:attempts'), dataIndex: 'attempts' },
          { title: t('common:error'), dataIndex: 'error', ellipsis: true },
          { title: t('common:sentAt'), dataIndex: 'sent_at', render: when },
          {
            key: 'actions',
            render: (_, mail) => {
              if (mail.status === 'failed' && can('mail.retry')) {
                return (
                  <Button size="small" onClick={() => void act(mail, 'retry')}>
                    {t('common:retry')}
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
