import type { BackendModule, ResourceKey } from 'i18next';

/** A bundler's lazy imports of an app's translation files, keyed by path (`import.meta.glob`). */
export type LocaleLoaders = Record<string, () => Promise<ResourceKey>>;

/**
 * i18next's backend over an app's translation files, `<folder>/<language>/<namespace>.json`: each
 * namespace is fetched on first use, for the language asked only, so that an app's entry carries
 * no translations. `files` are the loaders the entry carries; `more`, when given, fetches the
 * loaders of every other file (so that an entry need not carry a loader for each file of each
 * language: their hashed names weigh on every first load).
 */
export function localeFilesBackend(
  files: LocaleLoaders,
  folder: string,
  more?: () => Promise<LocaleLoaders>,
): BackendModule {
  const loaderOf = async (path: string) => files[path] ?? (more ? (await more())[path] : undefined);
  return {
    type: 'backend',
    init() {},
    read(language, namespace, callback) {
      const path = `${folder}/${language}/${namespace}.json`;
      loaderOf(path)
        .then((load) => {
          if (!load) throw new Error(`No translations at ${path}`);
          return load();
        })
        .then(
          (resources) => callback(null, resources),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
        );
    },
  };
}
