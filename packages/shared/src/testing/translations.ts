import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../languages.ts';

interface LocaleFile {
  language: string;
  namespace: string;
  content: unknown;
}

/** Every leaf as `a.b[0].c` → its text. */
function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (Array.isArray(value)) {
    value.forEach((item, index) => leaves(item, `${prefix}[${index}]`).forEach((v, k) => out.set(k, v)));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      leaves(item, prefix ? `${prefix}.${key}` : key).forEach((v, k) => out.set(k, v));
    }
  } else {
    out.set(prefix, value);
  }
  return out;
}

const placeholders = (text: unknown) =>
  [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

export interface TranslationRules {
  /** The Chinese texts address the reader as 您, never 你 (the customer site's register). */
  formalChinese: boolean;
}

/**
 * The checks every app's translations pass, over its files as `./<language>/<namespace>.json` →
 * content (`import.meta.glob('./*\/*.json', { eager: true, import: 'default' })`): only the site's
 * languages, every namespace in each, exactly the English keys, and a non-empty text with the
 * English placeholders for each key.
 */
export function describeTranslations(files: Record<string, unknown>, rules: TranslationRules): void {
  const locales: LocaleFile[] = Object.entries(files).map(([path, content]) => {
    const [, language = '', file = ''] = path.split('/');
    return { language, namespace: file.replace(/\.json$/, ''), content };
  });
  const namespaces = [...new Set(locales.map((file) => file.namespace))].sort();
  const find = (language: string, namespace: string) =>
    locales.find((file) => file.language === language && file.namespace === namespace);

  describe('translations', () => {
    it('exist only for the supported languages', () => {
      expect(new Set(locales.map((file) => file.language))).toEqual(new Set(LANGUAGES));
    });

    it.each(LANGUAGES)('%s has a file for every namespace', (language) => {
      const missing = namespaces.filter((namespace) => !find(language, namespace));
      expect(missing, `namespaces missing in ${language}`).toEqual([]);
    });

    describe.each(namespaces)('namespace %s', (namespace) => {
      const reference = leaves(find('en', namespace)?.content);

      it.each(LANGUAGES)('%s has exactly the English keys', (language) => {
        const keys = [...leaves(find(language, namespace)?.content).keys()];
        const missing = [...reference.keys()].filter((key) => !keys.includes(key));
        const extra = keys.filter((key) => !reference.has(key));
        expect({ missing, extra }).toEqual({ missing: [], extra: [] });
      });

      if (rules.formalChinese) {
        it.each(['zh', 'tw'])('%s addresses the customer as 您, never 你', (language) => {
          const informal = [...leaves(find(language, namespace)?.content)].filter(([, text]) =>
            String(text).includes('你'),
          );
          expect(informal.map(([key]) => key)).toEqual([]);
        });
      }

      it.each(LANGUAGES)('%s has a non-empty text with the same placeholders for each key', (language) => {
        const texts = leaves(find(language, namespace)?.content);
        for (const [key, english] of reference) {
          const text = texts.get(key);
          expect(
            typeof text === 'string' && text.trim() !== '',
            `${language} ${namespace}:${key} is empty`,
          ).toBe(true);
          expect(placeholders(text), `${language} ${namespace}:${key}`).toEqual(placeholders(english));
        }
      });
    });
  });
}
