import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  test: {
    environment: 'happy-dom',
    // Each file in a worker thread rather than a process of its own: an eighth less CPU for the same
    // isolation (each file still loads its modules afresh, as their mocks need).
    pool: 'threads',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Every test starts with its mocks' calls forgotten and its spies removed.
    clearMocks: true,
    restoreMocks: true,
    // A screen test renders antd through the real client and a mocked network: slow on a 2-core
    // machine while other suites run beside it.
    testTimeout: 20_000,
  },
});
