import { HTML_LANG, type Language } from '@skyway/shared/languages';
import { escapeHtml } from './html.ts';

/**
 * A page the server writes itself, without the site's app (a subscription link opened in a browser,
 * the unsubscribe page): one card in the middle, in the reader's language, no script. `body` is HTML
 * the caller has escaped.
 */
export function plainPage(options: {
  language: Language;
  title: string;
  style?: string;
  body: string;
}): string {
  return `<!doctype html>
<html lang="${HTML_LANG[options.language]}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <title>${escapeHtml(options.title)}</title>
    <style>
      body { font-family: system-ui, sans-serif; margin: 0; padding: 24px; background: #f5f5f5; color: #1f1f1f; }
      main { max-width: 400px; margin: 0 auto; background: #fff; border-radius: 12px; padding: 24px; text-align: center; }
      .button { display: block; width: 100%; margin: 8px 0; padding: 10px; border: 0; border-radius: 8px; background: #1677ff; color: #fff; font-size: 16px; text-decoration: none; cursor: pointer; }
      ${options.style ?? ''}
    </style>
  </head>
  <body>
    <main>
      ${options.body}
    </main>
  </body>
</html>
`;
}
