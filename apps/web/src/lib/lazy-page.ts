import type { Namespace } from 'i18next';
import { type ComponentType, lazy, type ReactNode } from 'react';
import { i18n } from './i18n.ts';

/** Spec section 8: a lazily loaded page that has not arrived after 120 s has failed. */
export const PAGE_LOAD_TIMEOUT_MS = 120_000;

export class PageLoadTimeoutError extends Error {
  constructor(ms: number) {
    super(`The page did not load within ${ms / 1000} s`);
    this.name = 'PageLoadTimeoutError';
  }
}

/** Rejects with PageLoadTimeoutError when the promise has not settled within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new PageLoadTimeoutError(ms)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The props of a function component; never for anything else. */
type PageProps<Page> = Page extends (props: infer Props) => ReactNode ? Props : never;

/**
 * React.lazy for a named export, failing after PAGE_LOAD_TIMEOUT_MS; the route's error element
 * then shows the failure, as a stalled download would otherwise spin for ever. The translation
 * namespaces the page needs are fetched alongside its code: the page would otherwise ask for them
 * only once its code had arrived and rendered. `preload` starts the same download before the page
 * is rendered (at start-up, while the common texts load).
 */
export function lazyPage<Module, Name extends keyof Module & string>(
  load: () => Promise<Module>,
  name: Name,
  namespaces: Namespace = [],
) {
  let loading: Promise<{ default: ComponentType<PageProps<Module[Name]>> }> | undefined;
  const loadPage = () =>
    (loading ??= withTimeout(
      Promise.all([load(), i18n.loadNamespaces(namespaces)]),
      PAGE_LOAD_TIMEOUT_MS,
    ).then(([module]) => ({ default: module[name] as ComponentType<PageProps<Module[Name]>> })));
  return Object.assign(lazy(loadPage), {
    // A failure is the page's to show once it renders.
    preload: () => void loadPage().catch(() => undefined),
  });
}
