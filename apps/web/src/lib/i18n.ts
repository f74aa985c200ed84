import { LANGUAGES, type Language } from '@skyway/shared/languages';
import i18next, { type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { localeFilesBackend } from '@skyway/shared/locale-files';

// Every namespace, common included, is fetched on first use, for the current language only: the
// entry carries no translations, and a page's texts come with its code (lib/lazy-page.ts). The entry
// carries the loaders of the public pages' namespaces; the others' (the console's) come in a chunk
// of their own, fetched with the first of them.
const publicFiles = import.meta.glob<ResourceKey>(
  '../locales/*/{common,download,login,legal,legal-privacy,legal-service,legal-use,help}.json',
  { import: 'default' },
);

const localeFiles = localeFilesBackend(publicFiles, '../locales', () =>
  import('./all-locale-files.ts').then((module) => module.allLocaleFiles),
);

export const i18n = i18next.createInstance();

/** Starts i18n in the language; resolves once the common namespace, which every page uses, is in. */
export async function initI18n(language: Language): Promise<void> {
  await i18n
    .use(localeFiles)
    .use(initReactI18next)
    .init({
      lng: language,
      supportedLngs: LANGUAGES,
      // A test proves that every key exists in every language, so a fallback would only cost requests.
      fallbackLng: false,
      ns: ['common'],
      defaultNS: 'common',
      // The language is set, and its texts requested, within init, so that namespaces asked for
      // right after it (a page's, preloaded at start-up) load in parallel.
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
