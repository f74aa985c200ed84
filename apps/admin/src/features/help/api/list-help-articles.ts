import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { helpArticleAdminListSchema, helpArticleAdminSchema } from '@skyway/shared/schemas/admin/help';
import { api } from '../../../lib/api-client.ts';

export type HelpArticle = z.infer<typeof helpArticleAdminSchema>;

export const HELP_ARTICLES_KEY = ['/help/articles'];

/** Every help article, published or not, in the order customers see them. */
export const useHelpArticles = () =>
  useQuery({
    queryKey: HELP_ARTICLES_KEY,
    queryFn: async () =>
      (await api<z.infer<typeof helpArticleAdminListSchema>>('GET', '/help/articles')).items,
  });
