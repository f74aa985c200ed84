import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteConf } from './site-conf.ts';

function setMetaDescription(content: string): void {
  let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
  meta.content = content;
}

/** Sets the document title (with the site's name) and, when given, the meta description. */
export function usePageMeta(title: string, description?: string): void {
  const { t } = useTranslation();
  const { data: conf } = useSiteConf();
  const site = conf?.site_name || t('brand');

  useEffect(() => {
    document.title = `${title} · ${site}`;
    if (description !== undefined) setMetaDescription(description);
  }, [title, description, site]);
}
