import type { z } from 'zod';
import type { helpArticleCreateRequest } from '@skyway/shared/schemas/admin/help';
import { api } from '../../../lib/api-client.ts';

export type HelpArticleBody = z.input<typeof helpArticleCreateRequest>;

/** Writes a new article, or (with its id) replaces every field of one. */
export const saveHelpArticle = (id: string | undefined, body: HelpArticleBody) =>
  id ? api('PATCH', `/help/articles/${id}`, body) : api('POST', '/help/articles', body);
