import { cleanup, configure } from '@testing-library/react';
import type { SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi, type MockInstance } from 'vitest';

export interface ComponentTestNetwork {
  /** The app's stand-in for its server's calls. */
  server: SetupServer;
  /** Forgets the calls a test answered and recorded. */
  resetNetwork(): void;
}

/**
 * The rules every component test of an app runs under, from its vitest setup file: a call no test
 * answered fails its test, and so does an unexpected console.error (a React warning, a failed
 * render); each test starts with a clean page and empty storage. `afterEachTest` clears what else
 * the app keeps between tests.
 */
export function guardComponentTests(network: ComponentTestNetwork, afterEachTest?: () => void): void {
  // findBy… and waitFor wait for what a reply brings: longer than testing-library's second, for a
  // 2-core machine running other suites beside this one.
  configure({ asyncUtilTimeout: 5_000 });

  let consoleError: MockInstance<typeof console.error>;

  beforeAll(() => {
    network.server.listen({ onUnhandledRequest: 'error' });
  });

  afterAll(() => {
    network.server.close();
  });

  beforeEach(() => {
    const original = console.error.bind(console);
    consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => original(...args));
  });

  afterEach(() => {
    cleanup();
    network.resetNetwork();
    localStorage.clear();
    afterEachTest?.();
    expect(consoleError, 'console.error was called').not.toHaveBeenCalled();
  });
}
