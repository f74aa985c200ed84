import type { ResourceKey } from 'i18next';

/**
 * Every translation file's loader, fetched by lib/i18n.ts the first time a namespace outside the
 * public pages' is asked for (a console page's): the entry carries the public pages' loaders only.
 */
export const allLocaleFiles = import.meta.glob<ResourceKey>('../locales/*/*.json', { import: 'default' });
