import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi, type MockInstance } from 'vitest';
import { initI18n } from '../lib/i18n.ts';
import { resetNetwork, server } from './network.ts';

await initI18n('en');

// findBy… and waitFor wait for what a reply brings: a second, testing-library's default, is short
// when the suites run beside each other on a 2-core machine.
configure({ asyncUtilTimeout: 5_000 });

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
  sessionStorage.clear();
  document.head.querySelectorAll('meta[name="signature-secret"]').forEach((meta) => meta.remove());
  expect(consoleError, 'console.error was called').not.toHaveBeenCalled();
});
