import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi, type MockInstance } from 'vitest';
import { i18n, initI18n, NAMESPACES } from '../lib/i18n.ts';
import { resetNetwork, server } from './network.ts';

// Every feature's texts are in before a screen renders, as the router fetches them with its code.
await initI18n('en');
await i18n.loadNamespaces(NAMESPACES);

// findBy… and waitFor wait for what a reply brings: longer than testing-library's second, for a
// 2-core machine running other suites beside this one.
configure({ asyncUtilTimeout: 5_000 });

// antd measures the window's width for its responsive parts; happy-dom answers no media query.
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }) as MediaQueryList;

let consoleError: MockInstance<typeof console.error>;

// A call that no test answered is reported with console.error, and so fails its test.
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});

afterAll(() => {
  server.close();
});

// An unexpected console.error (a React warning, a failed render) fails the test that caused it.
beforeEach(() => {
  const original = console.error.bind(console);
  consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => original(...args));
});

afterEach(() => {
  cleanup();
  resetNetwork();
  localStorage.clear();
  expect(consoleError, 'console.error was called').not.toHaveBeenCalled();
});
