import type { Language } from '@skyway/shared/languages';
import type { Locale } from 'antd/es/locale';

// One import per language, so that only the current language's antd texts are downloaded.
const loaders: Record<Language, () => Promise<{ default: Locale }>> = {
  en: () => import('antd/es/locale/en_US'),
  zh: () => import('antd/es/locale/zh_CN'),
  tw: () => import('antd/es/locale/zh_TW'),
};

const cache = new Map<Language, Promise<Locale>>();

/** The same promise for every caller, as React's use() requires. */
export function loadAntdLocale(language: Language): Promise<Locale> {
  let pending = cache.get(language);
  if (!pending) {
    pending = loaders[language]().then((module) => module.default);
    cache.set(language, pending);
  }
  return pending;
}
