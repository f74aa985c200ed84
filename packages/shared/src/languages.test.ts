import { describe, expect, it } from 'vitest';
import { languageFromAcceptLanguage, languageFromBrowser, languageFromParam } from './languages.ts';

describe('languages', () => {
  it('reads the l field', () => {
    expect(languageFromParam('us-en')).toBe('en');
    expect(languageFromParam('zh-cn')).toBe('zh');
    expect(languageFromParam('TW-CN')).toBe('tw');
    expect(languageFromParam('fr-fr')).toBeUndefined();
    expect(languageFromParam(undefined)).toBeUndefined();
  });

  it('applies the spec first-load rule to the browser language', () => {
    expect(languageFromBrowser('zh-CN')).toBe('zh');
    expect(languageFromBrowser('en-US')).toBe('en');
    expect(languageFromBrowser('en-GB')).toBe('tw');
    expect(languageFromBrowser('zh-TW')).toBe('tw');
  });

  it('reads Accept-Language by preference', () => {
    expect(languageFromAcceptLanguage('zh-TW,zh;q=0.9,en;q=0.8')).toBe('tw');
    expect(languageFromAcceptLanguage('zh-Hant-HK')).toBe('tw');
    expect(languageFromAcceptLanguage('fr;q=1, zh-CN;q=0.5, en;q=0.9')).toBe('en');
    expect(languageFromAcceptLanguage('zh')).toBe('zh');
    expect(languageFromAcceptLanguage('fr, de')).toBeUndefined();
    expect(languageFromAcceptLanguage(undefined)).toBeUndefined();
  });
});
