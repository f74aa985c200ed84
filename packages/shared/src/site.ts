import type { z } from 'zod';
import type { downloadSchema, siteConfSchema } from './schemas/site.ts';

export const PLATFORMS = ['windows', 'macos', 'android', 'ios'] as const;
export type Platform = (typeof PLATFORMS)[number];

export type Download = z.infer<typeof downloadSchema>;
export type SiteConf = z.infer<typeof siteConfSchema>;
