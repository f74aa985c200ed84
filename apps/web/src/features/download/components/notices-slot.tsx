import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchPublicNotices, type PublicNotice } from '../api/notices.ts';
import './notices-slot.css';

/**
 * The notices staff marked for the download page, as banners at its top. Asked for once the page
 * has mounted, so the first paint waits for nothing; nothing shows while they load, when there are
 * none, or when they cannot be read. Kept plain: this page carries the first load's budget.
 */
export function NoticesSlot() {
  const { t } = useTranslation('download');
  const [notices, setNotices] = useState<PublicNotice[]>([]);

  useEffect(() => {
    let current = true;
    fetchPublicNotices().then(
      (loaded) => {
        if (current) setNotices(loaded);
      },
      (error: unknown) => console.warn('The notices could not be loaded', error),
    );
    return () => {
      current = false;
    };
  }, []);

  if (notices.length === 0) return null;
  return (
    <section className="notice-banners" aria-label={t('notices.label')}>
      {notices.map((notice) => (
        <article key={notice.id} className="notice-banner" aria-labelledby={`notice-${notice.id}`}>
          <h2 id={`notice-${notice.id}`}>{notice.title}</h2>
          {/* Rendered by the server from staff's Markdown, HTML in it escaped and only safe links kept. */}
          <div className="notice-banner__body" dangerouslySetInnerHTML={{ __html: notice.body_html }} />
        </article>
      ))}
    </section>
  );
}
