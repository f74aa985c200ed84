import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from './storage-keys.ts';

vi.mock('./page.ts', () => import('../test/fake-page.ts'));

const { reloadPage } = await import('../test/fake-page.ts');
const { applyHtmlLang, chooseLanguage, detectLanguage } = await import('./language.ts');

describe('detectLanguage (spec section 4)', () => {
  it('prefers the stored language', () => {
    expect(detectLanguage('tw', 'zh-CN')).toBe('tw');
    expect(detectLanguage('en', 'zh-CN')).toBe('en');
  });

  it.each([
    ['zh-CN', 'zh'],
    ['en-US', 'en'],
    ['zh-TW', 'tw'],
    ['zh-HK', 'tw'],
    ['en-GB', 'tw'],
    ['fr-FR', 'tw'],
  ] as const)('without a stored one, the browser language %s gives %s', (browser, expected) => {
    expect(detectLanguage(null, browser)).toBe(expected);
  });

  it('defaults to en when the browser reports nothing', () => {
    expect(detectLanguage(null, '')).toBe('en');
    expect(detectLanguage(null, undefined)).toBe('en');
  });
});

describe('currentLanguage', () => {
  it('reads storage first, then navigator.language, once per page', async () => {
    vi.resetModules();
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('zh-CN');
    const fresh = await import('./language.ts');
    expect(fresh.currentLanguage()).toBe('zh');

    vi.resetModules();
    localStorage.setItem(STORAGE_KEYS.language, 'tw');
    const stored = await import('./language.ts');
    expect(stored.currentLanguage()).toBe('tw');
    localStorage.setItem(STORAGE_KEYS.language, 'en');
    expect(stored.currentLanguage()).toBe('tw');
  });
});

describe('chooseLanguage', () => {
  it('stores the choice and reloads the page', () => {
    chooseLanguage('zh');
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('zh');
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });
});

describe('applyHtmlLang', () => {
  it.each([
    ['en', 'en'],
    ['zh', 'zh-CN'],
    ['tw', 'zh-TW'],
  ] as const)('sets <html lang> for %s to %s', (language, lang) => {
    applyHtmlLang(language);
    expect(document.documentElement.lang).toBe(lang);
  });
});
