import { useState } from 'react';
import { HELP_CATEGORIES, helpPath } from '@skyway/shared/help';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner.tsx';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { useHelpList } from '../api/help.ts';
import { HelpSuggestions } from './help-suggestions.tsx';
import './help.css';

/** The help center: a search, and every published article under its category. */
export function HelpPage() {
  const { t } = useTranslation('help');
  usePageMeta(t('title'), t('description'));
  const [text, setText] = useState('');
  const list = useHelpList();

  return (
    <article className="help">
      <h1 className="help__title">{t('title')}</h1>
      <input
        type="search"
        className="help__search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t('search.placeholder')}
        aria-label={t('search.label')}
        maxLength={100}
      />
      <HelpSuggestions text={text} sayWhenNone />
      {list.isPending && <PageSpinner />}
      {list.isError && (
        <p className="help__failed">
          {t('failed')}{' '}
          <button type="button" className="help__retry" onClick={() => void list.refetch()}>
            {t('retry')}
          </button>
        </p>
      )}
      {list.data &&
        HELP_CATEGORIES.map((category) => {
          const articles = list.data.list.filter((article) => article.category === category);
          if (articles.length === 0) return null;
          return (
            <section key={category} className="help__category" data-category={category}>
              <h2>{t(`categories.${category}`)}</h2>
              <ul>
                {articles.map((article) => (
                  <li key={article.slug}>
                    <Link to={helpPath(article.slug)}>{article.title}</Link>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
    </article>
  );
}
