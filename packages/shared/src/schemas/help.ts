import { z } from 'zod';
import { HELP_CATEGORIES, HELP_QUERY_MAX, HELP_SLUG, HELP_SLUG_MAX } from '../help.ts';

const slug = z.string().trim().max(HELP_SLUG_MAX).regex(HELP_SLUG);

/** An article in a list, in the caller's language. */
export const helpArticleSummarySchema = z.object({
  slug: z.string(),
  title: z.string(),
  category: z.enum(HELP_CATEGORIES),
});

/** Reply of `/web/help/list`: the published articles, by category then in their order. */
export const helpListSchema = z.object({ list: z.array(helpArticleSummarySchema) });

/** `/web/help/article`: one published article by its slug. */
export const helpArticleRequest = z.object({ slug });

/**
 * Reply of `/web/help/article`: the article in the caller's language, rendered by the server for this
 * caller (sections for customers with access only when the caller has access) and sanitized: the
 * client inserts `html` as it is, then fills the device markers.
 */
export const helpArticleSchema = helpArticleSummarySchema.extend({
  html: z.string(),
  /** Last changed, unix seconds. */
  update_time: z.number().int(),
});

/** `/web/help/search`: words or Chinese text, in the caller's language. */
export const helpSearchRequest = z.object({ q: z.string().trim().min(1).max(HELP_QUERY_MAX) });

/** Reply of `/web/help/search`: the best matches first, each with a line of its text. */
export const helpSearchSchema = z.object({
  list: z.array(helpArticleSummarySchema.extend({ excerpt: z.string() })),
});

export type HelpList = z.infer<typeof helpListSchema>;
export type HelpArticle = z.infer<typeof helpArticleSchema>;
export type HelpSearchResults = z.infer<typeof helpSearchSchema>;
