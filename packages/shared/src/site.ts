import { z } from 'zod';

export const PLATFORMS = ['windows', 'macos', 'android', 'ios'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const downloadSchema = z.object({
  platform: z.enum(PLATFORMS),
  url: z.string(),
  version: z.string(),
});
export type Download = z.infer<typeof downloadSchema>;

/** Reply of `/web/site/conf`. */
export const siteConfSchema = z.object({
  site_name: z.string(),
  support_email: z.string(),
  downloads: z.array(downloadSchema),
  signing: z.boolean(),
});
export type SiteConf = z.infer<typeof siteConfSchema>;
