import i18next, { type Namespace, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { localeFilesBackend } from '@skyway/shared/locale-files';
import { isLanguage, LANGUAGES, type Language } from '@skyway/shared/languages';

// A namespace per feature, plus common for the app, the shared components and lib/: each is fetched
// on first use, for the current language only.
const files = import.meta.glob<ResourceKey>('../locales/*/*.json', { import: 'default' });

const localeFiles = localeFilesBackend(files, '../locales');

/** Every namespace, named by the English files (the reference). */
export const NAMESPACES = Object.keys(files)
  .filter((path) => path.startsWith('../locales/en/'))
  .map((path) => path.slice('../locales/en/'.length, -'.json'.length));

/** The texts the first screen needs before it renders: the layout's, the sign-in's and set-up's. */
const FIRST_SCREEN: Namespace = ['common', 'session'];

const STORAGE_KEY = 'skyway_admin_language';

/** The language chosen before, else the browser's (zh-TW/HK → tw, other zh → zh), else Chinese. */
export function initialLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  const browser = navigator.language.toLowerCase();
  if (/^zh-(tw|hk|mo|hant)/.test(browser)) return 'tw';
  if (browser.startsWith('zh')) return 'zh';
  return browser.startsWith('en') ? 'en' : 'zh';
}

/** Each language as its speakers name it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '简体中文', tw: '繁體中文' };

export const HTML_LANGUAGE: Record<Language, string> = { en: 'en', zh: 'zh-CN', tw: 'zh-TW' };

export function setLanguage(language: Language): void {
  localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = HTML_LANGUAGE[language];
  void i18next.changeLanguage(language);
}

export const i18n = i18next;

/** Starts i18n in the language; resolves once the first screen's namespaces are in. */
export async function initI18n(language: Language): Promise<void> {
  document.documentElement.lang = HTML_LANGUAGE[language];
  await i18next
    .use(localeFiles)
    .use(initReactI18next)
    .init({
      lng: language,
      supportedLngs: LANGUAGES,
      // A test proves that every key exists in every language, so a fallback would only cost requests.
      fallbackLng: false,
      ns: FIRST_SCREEN,
      defaultNS: 'common',
      interpolation: { escapeValue: false },
    });
}

/** Fetches a screen's namespace (a lazily loaded page's, alongside its code). */
export async function loadNamespace(namespace: string): Promise<void> {
  await i18next.loadNamespaces(namespace);
}

export const currentLanguage = (): Language => (isLanguage(i18next.language) ? i18next.language : 'zh');

/** What buyers are shown in each language (a gateway's name), in the console's language. */
export const inCurrentLanguage = (names: Record<Language, string>): string =>
  names[currentLanguage()] || names.en;
