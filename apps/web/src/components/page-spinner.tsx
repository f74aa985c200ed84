import { useTranslation } from 'react-i18next';

/** A Suspense fallback without antd, usable on the public pages. */
export function PageSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={fullScreen ? 'page-spinner page-spinner--full' : 'page-spinner'} role="status">
      <span className="page-spinner__ring" aria-hidden="true" />
      <span className="visually-hidden">{t('loading')}</span>
    </div>
  );
}
