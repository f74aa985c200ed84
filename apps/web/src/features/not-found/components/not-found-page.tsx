import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePageMeta } from '../../../lib/page-meta.ts';

export function NotFoundPage() {
  const { t } = useTranslation('not-found');
  const navigate = useNavigate();
  usePageMeta(t('title'));
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('text')}
      extra={
        // A real link (it can be opened in a new tab) that navigates inside the app when clicked.
        <Button
          type="primary"
          href="/"
          onClick={(event) => {
            event.preventDefault();
            void navigate('/');
          }}
        >
          {t('home')}
        </Button>
      }
    />
  );
}
