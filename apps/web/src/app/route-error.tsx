import { useTranslation } from 'react-i18next';
import { PageLoadTimeoutError } from '../lib/lazy-page.ts';
import { reloadPage } from '../lib/page.ts';

/**
 * Shown in place of a route that failed to render: most often a lazy chunk that timed out or did
 * not download (offline, or a new release replaced the hashed files). Hand-made so that it works
 * even when antd itself failed to load.
 */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const title = error instanceof PageLoadTimeoutError ? t('errors.pageLoadTimeout') : t('errors.pageLoad');

  return (
    <div className="route-error" role="alert">
      <h1 className="route-error__title">{title}</h1>
      <p className="route-error__hint">{t('errors.pageLoadHint')}</p>
      <div className="route-error__actions">
        <button type="button" className="btn btn--primary" onClick={reloadPage}>
          {t('errors.reload')}
        </button>
        <a className="btn btn--ghost" href="/">
          {t('errors.goHome')}
        </a>
      </div>
    </div>
  );
}
