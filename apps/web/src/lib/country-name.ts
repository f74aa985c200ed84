import { isLanguage, type Language } from '@skyway/shared/languages';
import { useTranslation } from 'react-i18next';

/** The locale country names are written in for each interface language. */
const DISPLAY_LOCALE: Record<Language, string> = { en: 'en', zh: 'zh-Hans', tw: 'zh-Hant' };

/**
 * The name of a country (ISO 3166-1 alpha-2 code) in the interface's language: JP → "Japan" /
 * "日本"; null for no code, or one that is malformed or names no known country.
 */
export function countryName(code: string | null, language: Language): string | null {
  if (!code) return null;
  try {
    const names = new Intl.DisplayNames([DISPLAY_LOCALE[language]], { type: 'region', fallback: 'none' });
    return names.of(code.toUpperCase()) ?? null;
  } catch {
    // A malformed code (RangeError), or a runtime without region names.
    return null;
  }
}

/** countryName in the language the page is shown in. */
export function useCountryName(): (code: string | null) => string | null {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : 'en';
  return (code) => countryName(code, language);
}
