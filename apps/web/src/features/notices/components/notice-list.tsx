import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatUnixTime } from '../../../lib/dates.ts';
import type { Notice } from '../api/notices.ts';

/**
 * The notices in the drawer, newest first (as the server sends them). `fresh` are the ones that were
 * unread when the drawer opened: they stay marked while it is open, though they are read by now.
 */
export function NoticeList({ notices, fresh }: { notices: Notice[]; fresh: readonly string[] }) {
  const { t } = useTranslation('notices');
  if (notices.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} />;
  }
  return (
    <ol className="notice-list">
      {notices.map((notice) => {
        const isNew = !notice.read || fresh.includes(notice.id);
        return (
          <li
            key={notice.id}
            className={isNew ? 'notice-item notice-item--new' : 'notice-item'}
            data-testid="notice"
          >
            <h2 className="notice-item__title">
              {isNew && <span className="notice-item__dot" aria-hidden="true" />}
              {isNew && <span className="visually-hidden">{t('new')}</span>}
              {notice.title}
            </h2>
            <time className="notice-item__time" dateTime={new Date(notice.publish_time * 1000).toISOString()}>
              {formatUnixTime(notice.publish_time)}
            </time>
            {/* Rendered by the server from staff's Markdown, HTML in it escaped and only safe links kept. */}
            <div className="notice-body" dangerouslySetInnerHTML={{ __html: notice.body_html }} />
          </li>
        );
      })}
    </ol>
  );
}
