import { lazy, type ComponentType } from 'react';

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

/**
 * React.lazy for a named export, failing after PAGE_LOAD_TIMEOUT_MS; the route's error element
 * then shows the failure, as a stalled download would otherwise spin for ever.
 */
export function lazyPage<Name extends string, Module extends Record<Name, ComponentType>>(
  load: () => Promise<Module>,
  name: Name,
) {
  return lazy(async () => {
    const module = await withTimeout(load(), PAGE_LOAD_TIMEOUT_MS);
    return { default: module[name] };
  });
}
