import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { useSiteConf } from '../../../lib/site-conf.ts';
import './legal-page.css';

export type LegalDocument = 'privacy' | 'service' | 'use';

interface Section {
  heading: string;
  paragraphs: string[];
}

/** One of the three legal texts, in the current language, naming the support address from config. */
export function LegalPage({ document }: { document: LegalDocument }) {
  const { t } = useTranslation(['legal', 'common']);
  const { data: conf } = useSiteConf();
  const email = conf?.support_email ?? '';
  const site = conf?.site_name || t('common:brand');
  const title = t(`${document}.title`);
  usePageMeta(title, t(`${document}.description`, { site }));

  const sections: Section[] = t(`${document}.sections`, { returnObjects: true, email, site });

  return (
    <article className="legal">
      <header className="legal__header">
        <h1 className="legal__title">{title}</h1>
        <p className="legal__intro">{t(`${document}.intro`, { site })}</p>
      </header>
      {sections.map((section) => (
        <section key={section.heading} className="legal__section">
          <h2>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      <footer className="legal__contact">
        <h2>{t('contact.heading')}</h2>
        <p>
          {t('contact.text')}{' '}
          {email ? <a href={`mailto:${email}`}>{email}</a> : <span aria-busy="true">…</span>}
        </p>
      </footer>
    </article>
  );
}
