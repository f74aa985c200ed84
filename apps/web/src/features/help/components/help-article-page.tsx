import type { ComponentType } from 'react';
import { ApiError } from '@skyway/shared/api-error';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner.tsx';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { useHelpArticle } from '../api/help.ts';
import { ArticleBody } from './article-body.tsx';
import './help.css';

/** One help article, for this reader. */
export function HelpArticlePage({ deviceLinks }: { deviceLinks: ComponentType }) {
  const { t } = useTranslation('help');
  const { slug = '' } = useParams();
  const article = useHelpArticle(slug);
  usePageMeta(article.data?.title ?? t('title'));

  return (
    <article className="help help-article">
      <Link to="/help" className="help-article__back">
        ← {t('back')}
      </Link>
      {article.isPending && <PageSpinner />}
      {article.isError &&
        (article.error instanceof ApiError && article.error.code === 404 ? (
          <p className="help-article__missing">{t('notFound')}</p>
        ) : (
          <p className="help__failed">
            {t('failed')}{' '}
            <button type="button" className="help__retry" onClick={() => void article.refetch()}>
              {t('retry')}
            </button>
          </p>
        ))}
      {article.data && (
        <>
          <h1 className="help__title">{article.data.title}</h1>
          <ArticleBody html={article.data.html} deviceLinks={deviceLinks} />
        </>
      )}
    </article>
  );
}
