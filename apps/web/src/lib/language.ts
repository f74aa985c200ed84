import { DEFAULT_LANGUAGE, HTML_LANG, languageFromBrowser, type Language } from '@skyway/shared/languages';
import { reloadPage } from './page.ts';
import { readLanguage, writeLanguage } from './storage.ts';

/**
 * Spec section 4: the stored choice wins; with none, the browser language decides (zh-CN → zh,
 * en-US → en, anything else → tw); a browser that reports no language gets the default, en.
 */
export function detectLanguage(stored: Language | null, browserLanguage: string | undefined): Language {
  if (stored) return stored;
  if (!browserLanguage) return DEFAULT_LANGUAGE;
  return languageFromBrowser(browserLanguage);
}

// Fixed for the page's lifetime: a change of language reloads the page (spec section 4).
let current: Language | null = null;

export function currentLanguage(): Language {
  current ??= detectLanguage(readLanguage(), navigator.language);
  return current;
}

/** Stores the choice and reloads, so that every text, antd's locale and the server's replies follow. */
export function chooseLanguage(language: Language): void {
  writeLanguage(language);
  reloadPage();
}

export function applyHtmlLang(language: Language): void {
  document.documentElement.lang = HTML_LANG[language];
}
