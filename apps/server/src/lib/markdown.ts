import MarkdownIt from 'markdown-it';

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
 * Staff's Markdown as customers see it (notices in the console, on the download page and by mail):
 * HTML written into it is escaped, and links and images only to http(s), mail and the site's own
 * paths, so the result may be inserted into a page as it is.
 */
export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
