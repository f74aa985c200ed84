import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { HelpArticle } from '../api/list-help-articles.ts';
import { HelpArticlesPage } from './help-articles-page.tsx';

const ARTICLE: HelpArticle = {
  id: '00000000-0000-4000-8000-000000000042',
  slug: 'flclash',
  category: 'clients',
  position: 1,
  published: true,
  title: { en: 'FlClash tutorial', zh: 'FlClash 使用教程', tw: 'FlClash 使用教學' },
  body: { en: 'Tap **Import**.', zh: '点击**导入**。', tw: '點擊**匯入**。' },
  created_at: '2026-03-01T08:00:00.000Z',
  updated_at: '2026-03-01T08:00:00.000Z',
};

const answerArticles = () => answer('GET', '/help/articles', ok({ items: [ARTICLE] }));

describe('the help articles page', () => {
  it('shows a viewer the articles but nothing to write or delete', async () => {
    signedInAs('viewer');
    answerArticles();
    await renderScreen(<HelpArticlesPage />);
    expect(await screen.findByText('FlClash tutorial')).toBeTruthy();
    expect(screen.getByText('Clients')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /New article/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('lets support preview each language as customers see it, then save the change', async () => {
    signedInAs('support');
    answerArticles();
    answer('POST', '/help/preview', ({ body }) => {
      const text = (body as { body: Record<string, string> }).body;
      return ok({
        html: { en: `<p>${text.en}</p>`, zh: '<p>点击<strong>导入</strong>。</p>', tw: `<p>${text.tw}</p>` },
      });
    });
    answer('PATCH', '/help/articles/:id', ok(ARTICLE));
    await renderScreen(<HelpArticlesPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = await screen.findByTestId('help-article-form');
    fireEvent.click(within(form).getByRole('tab', { name: '简体中文' }));
    fireEvent.click(within(form).getByRole('switch', { name: 'Preview 简体中文' }));
    const preview = await within(form).findByTestId('help-preview-zh');
    await waitFor(() => expect(preview.querySelector('strong')?.textContent).toBe('导入'));

    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(async () =>
      expect(await requestsTo('PATCH', `/help/articles/${ARTICLE.id}`)).toHaveLength(1),
    );
    const [sent] = await requestsTo('PATCH', `/help/articles/${ARTICLE.id}`);
    expect(sent?.body).toMatchObject({ slug: 'flclash', published: true, body: ARTICLE.body });
  });
});
