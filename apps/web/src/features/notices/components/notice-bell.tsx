import { useEffect, useState } from 'react';
import { BellOutlined } from '@ant-design/icons';
import { Alert, Badge, Button, Drawer, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query.ts';
import { useMarkNoticesRead, useNotices } from '../api/notices.ts';
import { NoticeList } from './notice-list.tsx';
import './notices.css';

const NO_IDS: readonly string[] = [];

/**
 * The console header's bell: the number of unread notices, and a drawer that lists them. What the
 * drawer shows unread is marked read on the server as it opens (and as a new one arrives while it is
 * open), so the count clears; those stay marked in the list until it closes.
 */
export function NoticeBell() {
  const { t } = useTranslation('notices');
  const compact = useMediaQuery(MOBILE_QUERY);
  const [open, setOpen] = useState(false);
  const [fresh, setFresh] = useState<readonly string[]>(NO_IDS);
  const { data, isError } = useNotices();
  const { mutate: markRead } = useMarkNoticesRead();

  const unread = data?.unread ?? 0;
  const unreadIds = data ? data.list.filter((notice) => !notice.read).map((notice) => notice.id) : [];
  const unreadKey = unreadIds.join(' ');

  // Remembered while the drawer is open, before they are read, so that they stay marked.
  const unmarked = open ? unreadIds.filter((id) => !fresh.includes(id)) : [];
  if (unmarked.length > 0) setFresh([...fresh, ...unmarked]);

  useEffect(() => {
    if (open && unreadKey !== '') markRead(unreadKey.split(' '));
  }, [open, unreadKey, markRead]);

  const close = () => {
    setOpen(false);
    setFresh(NO_IDS);
  };

  let content;
  if (data) content = <NoticeList notices={data.list} fresh={fresh} />;
  else if (isError) content = <Alert type="warning" showIcon title={t('failed')} />;
  else content = <Spin className="notice-drawer__loading" />;

  return (
    <>
      <Button
        type="text"
        className="notice-bell"
        aria-label={unread > 0 ? t('bellUnread', { count: unread }) : t('bell')}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        icon={
          // Darker than antd's red, so that the white count reads at WCAG AA's 4.5:1.
          <Badge count={unread} size="small" color="var(--danger)" className="notice-bell__badge">
            <BellOutlined className="notice-bell__icon" />
          </Badge>
        }
      />
      <Drawer
        open={open}
        onClose={close}
        placement="right"
        size={compact ? '100%' : 420}
        title={t('title')}
        rootClassName="notice-drawer-root"
      >
        {content}
      </Drawer>
    </>
  );
}
