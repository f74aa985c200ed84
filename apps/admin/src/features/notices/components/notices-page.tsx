import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoticeState } from '@skyway/shared/notices';
import { when } from '../../../lib/format.ts';
import { currentLanguage } from '../../../lib/i18n.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { PagedTable } from '../../../components/paged-table.tsx';
import { useCan } from '../../../lib/session.ts';
import { useChange } from '../../../lib/use-change.ts';
import { deleteNotice } from '../api/delete-notice.ts';
import { type Notice, NOTICES_KEY, useNotices } from '../api/list-notices.ts';
import { publishNotice } from '../api/publish-notice.ts';
import { takeDownNotice } from '../api/take-down-notice.ts';
import { NoticeHtml, NoticeModal } from './notice-form.tsx';

const STATE_COLORS: Record<NoticeState, string> = {
  draft: 'default',
  scheduled: 'blue',
  published: 'green',
  expired: 'orange',
};

/** A notice's title in the member's language (English should that one be missing). */
const titleOf = (notice: Notice) => notice.title[currentLanguage()] || notice.title.en;

/** Its mailing: none, on publishing, or how many went so far and when the last did. */
function Mailing(props: { notice: Notice }) {
  const { t } = useTranslation(['notices', 'common']);
  const { notice } = props;
  if (!notice.by_mail) return <>{t('common:none')}</>;
  if (notice.state === 'draft' || notice.state === 'scheduled') return <>{t('mailOnPublish')}</>;
  return (
    <Space orientation="vertical" size={0}>
      <span>{t('mailedCount', { count: notice.mailed })}</span>
      {notice.mailed_at && (
        <Typography.Text type="secondary">
          {t('mailedDone', { time: when(notice.mailed_at) })}
        </Typography.Text>
      )}
    </Space>
  );
}

/** A row's changes: edit; publish now or take down, by its state; delete. Each that shows customers asks first. */
function NoticeActions(props: { notice: Notice; onEdit: () => void }) {
  const { t } = useTranslation(['notices', 'common']);
  const { modal } = App.useApp();
  const change = useChange(NOTICES_KEY);
  const { notice } = props;
  const title = titleOf(notice);
  const ask = (options: {
    action: string;
    content: string;
    danger?: boolean;
    work: () => Promise<unknown>;
  }) =>
    modal.confirm({
      title: `${options.action}: ${title}`,
      content: options.content,
      okText: options.action,
      okButtonProps: { danger: options.danger },
      cancelText: t('common:cancel'),
      onOk: () => change(options.work),
    });
  return (
    <Space size="small">
      <Tooltip title={t('common:edit')}>
        <Button size="small" icon={<EditOutlined />} aria-label={t('common:edit')} onClick={props.onEdit} />
      </Tooltip>
      {(notice.state === 'draft' || notice.state === 'scheduled') && (
        <Button
          size="small"
          type="primary"
          onClick={() =>
            ask({
              action: t('publishNow'),
              content: `${t('publishNowConfirm')}${notice.by_mail ? ` ${t('publishNowMailConfirm')}` : ''}`,
              work: () => publishNotice(notice.id),
            })
          }
        >
          {t('publishNow')}
        </Button>
      )}
      {notice.state === 'published' && (
        <Button
          size="small"
          danger
          onClick={() =>
            ask({
              action: t('takeDown'),
              content: t('takeDownConfirm'),
              danger: true,
              work: () => takeDownNotice(notice.id),
            })
          }
        >
          {t('takeDown')}
        </Button>
      )}
      <Tooltip title={t('common:delete')}>
        <Button
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('common:delete')}
          onClick={() =>
            ask({
              action: t('deleteNotice'),
              content: t('deleteNoticeConfirm'),
              danger: true,
              work: () => deleteNotice(notice.id),
            })
          }
        />
      </Tooltip>
    </Space>
  );
}

/**
 * The notices to customers, newest first, each opening onto its body as customers read it. Every
 * role sees them; owners, admins and support write, publish, take down and delete them.
 */
export function NoticesPage() {
  const { t } = useTranslation(['notices', 'common']);
  const can = useCan();
  // Undefined: closed; null: a new notice.
  const [editing, setEditing] = useState<Notice | null | undefined>(undefined);
  const list = useNotices();
  if (!can('notices.view')) return <Forbidden />;
  const editable = can('notices.edit');
  return (
    <Card
      title={t('common:notices')}
      extra={
        editable && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            {t('newNotice')}
          </Button>
        )
      }
    >
      <PagedTable
        list={list}
        width={1150}
        testId="notices"
        expandable={{
          expandedRowRender: (notice) => <NoticeHtml html={notice.body_html[currentLanguage()]} />,
        }}
        columns={[
          { title: t('noticeTitle'), key: 'title', width: 240, render: (_, notice) => titleOf(notice) },
          {
            title: t('common:status'),
            dataIndex: 'state',
            render: (state: NoticeState) => (
              <Tag color={STATE_COLORS[state]}>{t(`noticeState_${state}`)}</Tag>
            ),
          },
          {
            title: t('audience'),
            dataIndex: 'audience',
            render: (audience: Notice['audience']) => t(`audience_${audience}`),
          },
          {
            title: t('downloadPage'),
            dataIndex: 'on_download_page',
            render: (shown: boolean) => (shown ? t('common:yes') : t('common:no')),
          },
          { title: t('mailing'), key: 'mailing', render: (_, notice) => <Mailing notice={notice} /> },
          { title: t('publishAt'), dataIndex: 'publish_at', render: when, width: 170 },
          { title: t('noticeExpireAt'), dataIndex: 'expire_at', render: when, width: 170 },
          ...(editable
            ? [
                {
                  key: 'actions',
                  // In view however narrow the screen.
                  fixed: 'right' as const,
                  width: 230,
                  render: (_: unknown, notice: Notice) => (
                    <NoticeActions notice={notice} onEdit={() => setEditing(notice)} />
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing !== undefined && <NoticeModal open notice={editing} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}
