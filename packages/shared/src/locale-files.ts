import type { BackendModule, ResourceKey } from 'i18next';

/** A bundler's lazy imports of an app's translation files, keyed by path (`import.meta.glob`). */
export type LocaleLoaders = Record<string, () => Promise<ResourceKey>>;

/**
 * i18next's backend over an app's translation files, `<folder>/<language>/<namespace>.json`: each
 * namespace is fetched on first use, for the language asked only, so that an app's entry carries
 * no translations.
 */
export function localeFilesBackend(files: LocaleLoaders, folder: string): BackendModule {
  return {
    type: 'backend',
    init() {},
    read(language, namespace, callback) {
      const path = `${folder}/${language}/${namespace}.json`;
      const load = files[path];
      if (!load) return callback(new Error(`No translations at ${path}`), false);
      load().then(
        (resources) => callback(null, resources),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
      );
    },
  };
}
