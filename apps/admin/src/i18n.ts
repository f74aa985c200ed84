import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isLanguage, type Language } from '@skyway/shared/languages';
import { en } from './locales/en.ts';
import { tw } from './locales/tw.ts';
import { zh } from './locales/zh.ts';

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

export const HTML_LANGUAGE: Record<Language, string> = { en: 'en', zh: 'zh-CN', tw: 'zh-TW' };

export function setLanguage(language: Language): void {
  localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = HTML_LANGUAGE[language];
  void i18next.changeLanguage(language);
}

export const i18n = i18next;

export async function initI18n(language: Language): Promise<void> {
  document.documentElement.lang = HTML_LANGUAGE[language];
  await i18next.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    resources: { en: { translation: en }, zh: { translation: zh }, tw: { translation: tw } },
    interpolation: { escapeValue: false },
  });
}

export const currentLanguage = (): Language => (isLanguage(i18next.language) ? i18next.language : 'zh');
