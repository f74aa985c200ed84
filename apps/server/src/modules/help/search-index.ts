import MiniSearch from 'minisearch';
import { HELP_RESULTS_MAX, type HelpCategory } from '@skyway/shared/help';
import { LANGUAGES, type Language } from '@skyway/shared/languages';
import type { HelpArticleRow } from '../../db/schema/index.ts';
import { searchableText } from './render.ts';

/**
 * The help center's search, in process (minisearch). Chinese has no spaces between words, so a run
 * of Han characters is indexed as its overlapping pairs (连接设备 → 连接 接设 设备): a query of two
 * characters or more matches wherever its pairs appear, whatever the word boundaries. Other scripts
 * are split into words, matched by prefix and, for long words, with a typo's tolerance.
 */
const HAN = /\p{Script=Han}/u;
const TERMS = /\p{Script=Han}+|[\p{L}\p{N}]+/gu;

export function tokenize(text: string): string[] {
  const terms: string[] = [];
  // Han runs set apart first, so "v2rayN连接" gives "v2rayn" and "连接", not one mixed word.
  const spaced = text.toLowerCase().replace(/(\p{Script=Han}+)/gu, ' $1 ');
  for (const [run] of spaced.matchAll(TERMS)) {
    if (!HAN.test(run)) {
      terms.push(run);
    } else if (run.length === 1) {
      terms.push(run);
    } else {
      for (let at = 0; at < run.length - 1; at += 1) terms.push(run.slice(at, at + 2));
    }
  }
  return terms;
}

interface Entry {
  id: string;
  slug: string;
  category: HelpCategory;
  language: Language;
  title: string;
  text: string;
}

export interface HelpMatch {
  slug: string;
  title: string;
  category: HelpCategory;
  excerpt: string;
}

const EXCERPT_AROUND = 40;

/** A line of the text around the first term of the query it holds (its start when none). */
function excerptOf(text: string, query: string): string {
  const lower = text.toLowerCase();
  const hits = tokenize(query)
    .map((term) => lower.indexOf(term))
    .filter((at) => at >= 0);
  const at = hits.length > 0 ? Math.min(...hits) : 0;
  const start = Math.max(0, at - EXCERPT_AROUND);
  const end = Math.min(text.length, at + EXCERPT_AROUND * 2);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

export interface HelpSearchIndex {
  search(query: string, language: Language): HelpMatch[];
  /** When each indexed article was last changed (ms), by id. */
  readonly versions: ReadonlyMap<string, number>;
  /** Adds articles, or replaces them with their new text. */
  upsert(rows: HelpArticleRow[]): void;
  remove(ids: string[]): void;
}

const entriesOf = (row: HelpArticleRow, siteName: string): Entry[] =>
  LANGUAGES.map((language) => ({
    id: `${row.id}:${language}`,
    slug: row.slug,
    category: row.category,
    language,
    title: row.title[language],
    text: searchableText(row.body[language], siteName),
  }));

/** An index of published articles, one entry per article and language, changed in place. */
export function buildSearchIndex(rows: HelpArticleRow[], siteName: string): HelpSearchIndex {
  const index = new MiniSearch<Entry>({
    fields: ['title', 'text'],
    storeFields: ['slug', 'category', 'language', 'title', 'text'],
    tokenize,
    processTerm: (term) => term,
  });
  const versions = new Map<string, number>();
  const remove = (ids: string[]) => {
    for (const id of ids) {
      for (const language of LANGUAGES) {
        if (index.has(`${id}:${language}`)) index.discard(`${id}:${language}`);
      }
      versions.delete(id);
    }
  };
  const upsert = (changed: HelpArticleRow[]) => {
    remove(changed.filter((row) => versions.has(row.id)).map((row) => row.id));
    index.addAll(changed.flatMap((row) => entriesOf(row, siteName)));
    for (const row of changed) versions.set(row.id, row.updatedAt.getTime());
  };
  upsert(rows);
  return {
    versions,
    upsert,
    remove,
    search(query, language) {
      const found = index.search(query, {
        filter: (result) => result.language === language,
        boost: { title: 3 },
        prefix: (term) => !HAN.test(term) && term.length > 2,
        fuzzy: (term) => (!HAN.test(term) && term.length > 4 ? 0.2 : false),
      });
      return found.slice(0, HELP_RESULTS_MAX).map((result) => ({
        slug: result.slug as string,
        title: result.title as string,
        category: result.category as HelpCategory,
        excerpt: excerptOf(result.text as string, query),
      }));
    },
  };
}
