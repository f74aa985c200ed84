import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/** Where a link or an image may point: the web, mail, and the site's own pages. */
const SAFE_URL = /^(https?:|mailto:|\/(?!\/)|#)/i;

const markdown = new MarkdownIt({
  // Raw HTML in the source is shown as text, never passed through: no script, no event handler.
  html: false,
  linkify: true,
  breaks: true,
});
markdown.validateLink = (url) => SAFE_URL.test(url.trim());

// Links open on their own, and tell the page they lead to nothing about ours.
const renderLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const token = tokens[index];
  const href = String(token?.attrGet('href') ?? '');
  if (token && !href.startsWith('/') && !href.startsWith('#')) {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer nofollow');
  }
  return renderLinkOpen(tokens, index, options, env, self);
};

/**
 * What may reach a page, whatever markdown-it made: its own tags, images, and links and images only
 * to the web, mail and the site's own paths. A second wall behind `html: false` and `validateLink`.
 */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img'],
  allowedAttributes: {
    a: ['href', 'target', 'rel', 'title'],
    img: ['src', 'alt', 'title'],
    ol: ['start'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
};

/** Parses Markdown as `renderMarkdown` does, for a reader of its tokens (the help center's search text). */
export const parseMarkdown = (source: string) => markdown.parse(source, {});

/**
 * Staff's Markdown as customers see it (notices in the console, on the download page and by mail; help
 * articles): HTML written into it is escaped, links and images only to http(s), mail and the site's
 * own paths, and the result sanitized, so it may be inserted into a page as it is.
 */
export function renderMarkdown(source: string): string {
  return sanitizeHtml(markdown.render(source), SANITIZE);
}
