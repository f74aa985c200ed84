/** Interface languages, as stored by the browser client. */
export const LANGUAGES = ['en', 'zh', 'tw'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** The `l` field that a call carries for each language. */
export const LANGUAGE_PARAM: Record<Language, string> = { en: 'us-en', zh: 'zh-cn', tw: 'tw-cn' };

/** The `<html lang>` value of each language. */
export const HTML_LANG: Record<Language, string> = { en: 'en', zh: 'zh-CN', tw: 'zh-TW' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Reads an `l` field (`us-en`, `zh-cn`, `tw-cn`); anything else gives undefined. */
export function languageFromParam(value: unknown): Language | undefined {
  if (typeof value !== 'string') return undefined;
  const wanted = value.toLowerCase();
  return LANGUAGES.find((language) => LANGUAGE_PARAM[language] === wanted);
}

/**
 * The spec's first-load rule for the browser language: zh-CN gives zh, en-US gives en, anything else
 * gives tw.
 */
export function languageFromBrowser(browserLanguage: string): Language {
  if (browserLanguage === 'zh-CN') return 'zh';
  if (browserLanguage === 'en-US') return 'en';
  return 'tw';
}

/**
 * Reads an Accept-Language header by preference order: Traditional Chinese tags (zh-TW, zh-HK,
 * zh-MO, zh-Hant) give tw, other Chinese tags give zh, English gives en.
 */
export function languageFromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...attributes] = part.trim().split(';');
      const q = attributes.map((a) => a.trim()).find((a) => a.startsWith('q='));
      return { tag: tag.toLowerCase(), quality: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((range) => range.tag && range.quality > 0)
    .sort((x, y) => y.quality - x.quality || x.index - y.index);
  for (const { tag } of ranges) {
    if (/^zh-(tw|hk|mo|hant)\b/.test(tag)) return 'tw';
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return undefined;
}
