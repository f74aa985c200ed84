import { helpPath } from '@skyway/shared/help';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useHelpSearch } from '../api/help.ts';
import './help.css';

interface Props {
  /** What the visitor wrote: a search, or a ticket's subject. */
  text: string;
  /** A line above the matches (a ticket form's "these may answer your question"). */
  heading?: string;
  /** Whether to say so when nothing matches (a search box does; a form stays quiet). */
  sayWhenNone?: boolean;
}

/** The help articles matching a text, best first, each a link with a line of its text. */
export function HelpSuggestions({ text, heading, sayWhenNone = false }: Props) {
  const { t } = useTranslation('help');
  const { q, results } = useHelpSearch(text);
  if (!results) return null;
  if (results.length === 0) {
    return sayWhenNone ? <p className="help-suggestions__none">{t('search.none', { q })}</p> : null;
  }
  return (
    <section className="help-suggestions" aria-live="polite">
      {heading && <p className="help-suggestions__heading">{heading}</p>}
      <ul className="help-suggestions__list">
        {results.map((result) => (
          <li key={result.slug}>
            <Link to={helpPath(result.slug)} className="help-suggestions__title">
              {result.title}
            </Link>
            <p className="help-suggestions__excerpt">{result.excerpt}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
