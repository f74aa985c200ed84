import { DEFAULT_LANGUAGE, type Language, languageFromBrowser } from './languages.ts';

/**
 * The site's pages a visitor opens first, signed out: the module of each page's code (from the web
 * app's root, as its build manifest names it) and the translation namespaces it needs besides
 * `common`. The web router loads each page with these namespaces; the server names the page's code
 * and texts in the HTML it answers for the page, so that the browser fetches them with the entry
 * instead of after it has run.
 */
export const FIRST_PAGES = {
  '/download': { module: 'src/features/download/components/download-page.tsx', namespaces: ['download'] },
  '/login': { module: 'src/features/login/components/login-page.tsx', namespaces: ['login'] },
  '/privacy': {
    module: 'src/features/legal/components/legal-page.tsx',
    namespaces: ['legal', 'legal-privacy'],
  },
  '/service': {
    module: 'src/features/legal/components/legal-page.tsx',
    namespaces: ['legal', 'legal-service'],
  },
  '/use': { module: 'src/features/legal/components/legal-page.tsx', namespaces: ['legal', 'legal-use'] },
} as const;
export type FirstPagePath = keyof typeof FIRST_PAGES;

/**
 * The language a first visit shows, told from its request: the browser's first language, read as
 * the web app reads `navigator.language` (spec section 4), which Chromium and Firefox send first in
 * Accept-Language; the default without one. (A visitor who chose a language before may see another.)
 */
export function firstVisitLanguage(acceptLanguage: string | undefined): Language {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  return first ? languageFromBrowser(first) : DEFAULT_LANGUAGE;
}
