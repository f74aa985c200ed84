import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FIRST_PAGES, type FirstPagePath, firstVisitLanguage } from '@skyway/shared/first-pages';
import { LANGUAGES, type Language } from '@skyway/shared/languages';

/** A module of the web app's build manifest (Vite's `.vite/manifest.json`), by its source. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** What the HTML of a first page names for the browser to fetch with the entry, by language. */
export interface PagePreloads {
  /** The page's preload tags in the request's language, with a key naming the variant; null: none. */
  forRequest(pathname: string, acceptLanguage: string | undefined): { key: string; tags: string } | null;
}

const isFirstPage = (pathname: string): pathname is FirstPagePath => Object.hasOwn(FIRST_PAGES, pathname);

/** Every chunk a chunk imports, itself included, by manifest key (each once). */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const imported of manifest[key].imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

/** The tags that fetch a page's code, styles and texts, leaving out what the entry already brings. */
function tagsOf(manifest: Manifest, page: (typeof FIRST_PAGES)[FirstPagePath], language: Language): string {
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  const loaded = entry ? staticClosure(manifest, entry) : new Set<string>();
  const chunks = [...staticClosure(manifest, page.module)].filter((key) => !loaded.has(key));
  const texts = ['common', ...page.namespaces].map(
    (namespace) => `src/locales/${language}/${namespace}.json`,
  );
  const scripts = [...chunks, ...texts].flatMap((key) => manifest[key]?.file ?? []);
  const styles = chunks.flatMap((key) => manifest[key]?.css ?? []);
  return [
    ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ...styles.map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ].join('');
}

/**
 * The preloads of the site's first pages (FIRST_PAGES), from the build's manifest: without them a
 * page's code and texts start downloading only once the entry has run. Null without a manifest (a
 * build from before it was kept, or none).
 */
export function loadPagePreloads(distDir: string): PagePreloads | null {
  const file = path.join(distDir, '.vite', 'manifest.json');
  if (!existsSync(file)) return null;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  const tags = new Map<string, string>();
  for (const [pathname, page] of Object.entries(FIRST_PAGES)) {
    for (const language of LANGUAGES) tags.set(`${pathname} ${language}`, tagsOf(manifest, page, language));
  }
  return {
    forRequest(pathname, acceptLanguage) {
      if (!isFirstPage(pathname)) return null;
      const key = `${pathname} ${firstVisitLanguage(acceptLanguage)}`;
      return { key, tags: tags.get(key) ?? '' };
    },
  };
}
