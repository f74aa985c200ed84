import { Fragment, useLayoutEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { useSiteConf } from '../../../lib/site-conf.ts';
import { type LegalDocument, legalNamespace } from '../documents.ts';
import './legal-page.css';

/** One section of a legal text in legal.json; `id` is the same in every language. */
export interface LegalSection {
  id: string;
  heading: string;
  paragraphs: string[];
  items?: string[];
  afterItems?: string[];
}

// Stand in for {{email}} and {{date}} during interpolation, so that elements can take their place.
const EMAIL_SLOT = '\uE000';
const DATE_SLOT = '\uE001';

/** The text with each occurrence of the slot replaced by the node. */
function fillSlot(text: string, slot: string, node: ReactNode): ReactNode {
  if (!text.includes(slot)) return text;
  return text.split(slot).map((part, index) => (
    // The parts of one fixed string never reorder, so their position is a stable key.
    <Fragment key={index}>
      {index > 0 && node}
      {part}
    </Fragment>
  ));
}

function EmailLink({ email }: { email: string }) {
  if (!email) {
    return (
      <span className="legal__pending" aria-busy="true">
        …
      </span>
    );
  }
  return <a href={`mailto:${email}`}>{email}</a>;
}

function idFromHash(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
}

/**
 * Brings the section named by the URL's hash into view, also when the page opens on it
 * (/service#automatic-renewal). The app shell scrolls to the top on every navigation in a layout
 * effect of its own, which runs after this one (parents after children): the scroll is therefore
 * queued as a microtask, which runs once the whole commit is done and before the browser paints.
 * It runs again when the site configuration arrives, as the support address changes the text's length.
 */
function useScrollToHash(confLoaded: boolean): void {
  const { hash, key } = useLocation();
  useLayoutEffect(() => {
    if (hash.length < 2) return;
    let cancelled = false;
    queueMicrotask(() => {
      if (!cancelled) document.getElementById(idFromHash(hash))?.scrollIntoView();
    });
    return () => {
      cancelled = true;
    };
  }, [hash, key, confLoaded]);
}

/** One of the three legal texts, in the current language, naming the support address from config. */
export function LegalPage({ document }: { document: LegalDocument }) {
  const { t } = useTranslation(['legal', 'common']);
  const { t: text } = useTranslation(legalNamespace(document));
  const { data: conf } = useSiteConf();
  const email = conf?.support_email ?? '';
  const site = conf?.site_name || t('common:brand');
  const title = text('title');
  usePageMeta(title, text('description', { site }));
  useScrollToHash(conf !== undefined);

  const sections: LegalSection[] = text('sections', {
    returnObjects: true,
    email: EMAIL_SLOT,
    site,
  });
  const updated = text('updated');
  const tocId = `${document}-toc`;
  const emailLink = <EmailLink email={email} />;

  return (
    <article className="legal">
      <header className="legal__header">
        <h1 className="legal__title">{title}</h1>
        <p className="legal__updated">
          {fillSlot(
            t('updatedLine', { date: DATE_SLOT }),
            DATE_SLOT,
            // The house date format, YYYY-MM-DD, in every language.
            <time dateTime={updated}>{updated}</time>,
          )}
        </p>
        <p className="legal__intro">{text('intro', { site })}</p>
      </header>

      <nav className="legal__toc" aria-labelledby={tocId}>
        <p id={tocId} className="legal__toc-title">
          {t('toc')}
        </p>
        <ol className="legal__toc-list">
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.heading}</a>
            </li>
          ))}
        </ol>
      </nav>

      {sections.map((section) => (
        <section key={section.id} className="legal__section">
          {/* The anchor sits beside the heading, not inside it, so that it stays out of the heading's name. */}
          <div className="legal__heading">
            <h2 id={section.id}>{section.heading}</h2>
            <a
              className="legal__anchor"
              href={`#${section.id}`}
              aria-label={t('anchorLabel', { heading: section.heading })}
            >
              #
            </a>
          </div>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{fillSlot(paragraph, EMAIL_SLOT, emailLink)}</p>
          ))}
          {section.items && (
            <ul className="legal__list">
              {section.items.map((item) => (
                <li key={item}>{fillSlot(item, EMAIL_SLOT, emailLink)}</li>
              ))}
            </ul>
          )}
          {section.afterItems?.map((paragraph) => (
            <p key={paragraph}>{fillSlot(paragraph, EMAIL_SLOT, emailLink)}</p>
          ))}
        </section>
      ))}
    </article>
  );
}
