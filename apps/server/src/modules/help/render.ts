import { HELP_DEVICE_MARKER } from '@skyway/shared/help';
import { escapeHtml } from '../../lib/html.ts';
import { parseMarkdown, renderMarkdown } from '../../lib/markdown.ts';

/**
 * An article's Markdown as one reader sees it. Beyond Markdown, staff write:
 *
 * - `{{site_name}}`: the site's name;
 * - `{{device_link}}`, alone on its line: a picker of the signed-in customer's own devices with the
 *   chosen one's link, import buttons and QR code (the browser fills it; the server never puts a
 *   link in an article, and a signed-out reader sees a prompt to sign in);
 * - a section between a line `:::access` and a line `:::`, shown only to customers whose access runs
 *   now, and one between `:::no-access` and `:::` only to the others (the signed-out included).
 */
export interface Reader {
  hasAccess: boolean;
  siteName: string;
}

const OPENS = { ':::access': true, ':::no-access': false } as const;
const CLOSES = ':::';

/**
 * The lines this reader may see: the sections for the other kind of reader are left out before
 * anything is rendered, so their text reaches neither the page nor the reply. A section never
 * closed runs to the end.
 */
export function visibleSource(source: string, hasAccess: boolean): string {
  const kept: string[] = [];
  let section: boolean | null = null;
  for (const line of source.split(/\r?\n/)) {
    const mark = line.trim();
    if (section === null && mark in OPENS) {
      section = OPENS[mark as keyof typeof OPENS];
      continue;
    }
    if (section !== null && mark === CLOSES) {
      section = null;
      continue;
    }
    if (section === null || section === hasAccess) kept.push(line);
  }
  return kept.join('\n');
}

const SITE_NAME = /\{\{\s*site_name\s*\}\}/g;
const DEVICE_LINK = /<p>\s*\{\{\s*device_link\s*\}\}\s*<\/p>/g;

/**
 * The article as HTML for this reader: rendered and sanitized (`renderMarkdown`), then the
 * placeholders filled, after sanitizing, by the server's own markup only.
 */
export function renderArticle(source: string, reader: Reader): string {
  return renderMarkdown(visibleSource(source, reader.hasAccess))
    .replace(DEVICE_LINK, `<div ${HELP_DEVICE_MARKER}=""></div>`)
    .replace(SITE_NAME, escapeHtml(reader.siteName));
}

/**
 * The words of an article a search may match, as every reader sees them (sections for those with
 * access are left out, so a search never shows their text to others): the text of its Markdown
 * without markup or placeholders.
 */
export function searchableText(source: string, siteName: string): string {
  const words: string[] = [];
  for (const token of parseMarkdown(visibleSource(source, false))) {
    if (token.type === 'fence' || token.type === 'code_block') words.push(token.content);
    for (const child of token.children ?? []) {
      if (child.type === 'text' || child.type === 'code_inline') words.push(child.content);
    }
  }
  return words
    .join(' ')
    .replace(SITE_NAME, siteName)
    .replace(/\{\{\s*device_link\s*\}\}/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
