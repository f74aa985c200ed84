import { LANGUAGES, type Language } from '@skyway/shared/languages';
import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

// The common namespace is bundled so that the layouts render without waiting for a request; every
// other namespace is fetched on first use, for the current language only.
const bundled = import.meta.glob<ResourceKey>('../locales/*/common.json', { eager: true, import: 'default' });
const fetched = import.meta.glob<ResourceKey>(['../locales/*/*.json', '!../locales/*/common.json'], {
  import: 'default',
});

const localePath = (language: string, namespace: string) => `../locales/${language}/${namespace}.json`;

const localeFiles: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const path = localePath(language, namespace);
    const ready = bundled[path];
    if (ready) return callback(null, ready);
    const load = fetched[path];
    if (!load) return callback(new Error(`No translations at ${path}`), false);
    load().then(
      (resources) => callback(null, resources),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

export const i18n = i18next.createInstance();

export function initI18n(language: Language): void {
  const common = bundled[localePath(language, 'common')];
  void i18n
    .use(localeFiles)
    .use(initReactI18next)
    .init({
      lng: language,
      supportedLngs: LANGUAGES,
      // A test proves that every key exists in every language, so a fallback would only cost requests.
      fallbackLng: false,
      ns: ['common'],
      defaultNS: 'common',
      resources: common ? { [language]: { common } } : undefined,
      partialBundledLanguages: true,
      initAsync: false,
      interpolation: { escapeValue: false },
      // A missing key shows as its raw name; reporting it as an error makes every browser journey,
      // which fails on console errors, a check for missing translations too.
      saveMissing: true,
      missingKeyHandler: (languages, namespace, key) => {
        console.error(`Missing translation: ${namespace}:${key} (${languages.join(', ')})`);
      },
    });
}
