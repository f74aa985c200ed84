import { z } from 'zod';
import { HELP_BODY_MAX, HELP_CATEGORIES, HELP_SLUG, HELP_SLUG_MAX, HELP_TITLE_MAX } from '../../help.ts';
import { inEachLanguage, isoTime } from './common.ts';

/** A help article as the back office shows it: the Markdown as written, in every language. */
export const helpArticleAdminSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  category: z.enum(HELP_CATEGORIES),
  /** Its place in its category, smallest first. */
  position: z.number().int(),
  published: z.boolean(),
  title: inEachLanguage(z.string()),
  body: inEachLanguage(z.string()),
  created_at: isoTime,
  updated_at: isoTime,
});

export const helpArticleAdminListSchema = z.object({ items: z.array(helpArticleAdminSchema) });

const fields = {
  slug: z.string().trim().min(1).max(HELP_SLUG_MAX).regex(HELP_SLUG),
  category: z.enum(HELP_CATEGORIES),
  position: z.number().int().min(0).max(10_000),
  published: z.boolean(),
  title: inEachLanguage(z.string().trim().min(1).max(HELP_TITLE_MAX)),
  body: inEachLanguage(z.string().trim().min(1).max(HELP_BODY_MAX)),
};

/** A new article (a draft unless `published`). */
export const helpArticleCreateRequest = z.object({ ...fields, published: fields.published.default(false) });

/** A change to any of an article's fields. */
export const helpArticlePatchRequest = z.object(fields).partial();

/** The editor's preview: the bodies as a customer with access will see them, before saving. */
export const helpPreviewRequest = z.object({ body: inEachLanguage(z.string().max(HELP_BODY_MAX)) });
export const helpPreviewSchema = z.object({ html: inEachLanguage(z.string()) });
