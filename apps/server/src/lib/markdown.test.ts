import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';

describe('renderMarkdown', () => {
  it('renders the usual Markdown', () => {
    const html = renderMarkdown(
      '# Maintenance\n\n**Tonight** from 02:00, see [status](https://status.example.com).\n\n- one\n- two',
    );
    expect(html).toContain('<h1>Maintenance</h1>');
    expect(html).toContain('<strong>Tonight</strong>');
    expect(html).toContain(
      '<a href="https://status.example.com" target="_blank" rel="noopener noreferrer nofollow">status</a>',
    );
    expect(html).toContain('<li>one</li>');
  });

  it('keeps links to the site itself in the same tab', () => {
    expect(renderMarkdown('[Renew](/buy)')).toContain('<a href="/buy">Renew</a>');
  });

  it('shows script and event handlers as text, never as markup', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n<a href="#" onclick="alert(3)">x</a>',
    );
    expect(html).not.toMatch(/<script|<img|<a /i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror="alert(2)"&gt;');
  });

  it('drops links and images to javascript:, data: and other schemes', () => {
    for (const source of [
      '[x](javascript:alert(1))',
      '[x](JaVaScRiPt:alert(1))',
      '[x](vbscript:msgbox)',
      '[x](data:text/html;base64,PHNjcmlwdD4=)',
      '![x](data:image/svg+xml;base64,PHN2Zz4=)',
      '[x](//evil.example.com)',
      '<javascript:alert(1)>',
    ]) {
      const html = renderMarkdown(source);
      expect(html, source).not.toMatch(/href=|src=/);
    }
  });

  it('cannot be broken out of with attribute quotes', () => {
    const html = renderMarkdown('[x](https://a.example/"onmouseover="alert(1))');
    expect(html).not.toMatch(/"\s*onmouseover=/);
  });
});
