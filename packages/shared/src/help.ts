import type { DevicePlatform } from './devices.ts';

/**
 * The help center (PRODUCT.md section 10): articles staff write in every language, in categories,
 * public on the site, with placeholders filled in for a signed-in customer and sections shown only
 * to customers with access.
 */

/** The categories, in the order the help center lists them. */
export const HELP_CATEGORIES = ['getting_started', 'clients', 'payments', 'troubleshooting'] as const;
export type HelpCategory = (typeof HELP_CATEGORIES)[number];

export const HELP_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const HELP_SLUG_MAX = 64;
export const HELP_TITLE_MAX = 120;
export const HELP_BODY_MAX = 30_000;
/** A search asks with at most this many characters and gets at most this many articles. */
export const HELP_QUERY_MAX = 100;
export const HELP_RESULTS_MAX = 8;

/**
 * The tutorial My devices' "how to connect" opens for each platform (the seeded articles' slugs;
 * none for "other", which opens the help center's list).
 */
export const TUTORIAL_FOR_PLATFORM: Record<DevicePlatform, string | null> = {
  windows: 'clash-verge-rev',
  macos: 'clash-verge-rev',
  linux: 'clash-verge-rev',
  android: 'flclash',
  ios: 'shadowrocket',
  other: null,
};

/** The site path of an article, or of the help center's list. */
export const helpPath = (slug: string | null): string => (slug ? `/help/${slug}` : '/help');

/**
 * Where an article's HTML holds a device's link: the browser fills it with a picker of the signed-in
 * customer's own devices (the server never puts a link in an article).
 */
export const HELP_DEVICE_MARKER = 'data-help-device';
