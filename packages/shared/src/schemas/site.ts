import { z } from 'zod';
import { PLATFORMS } from '../site.ts';

export const downloadSchema = z.object({
  platform: z.enum(PLATFORMS),
  url: z.string(),
  version: z.string(),
});

/** Reply of `/web/site/conf`. */
export const siteConfSchema = z.object({
  site_name: z.string(),
  support_email: z.string(),
  downloads: z.array(downloadSchema),
  signing: z.boolean(),
});
