import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The panel journey runs the real server, whose test databases are copies of one migrated per run.
    globalSetup: ['../server/src/testing/migrated-database.global.ts'],
  },
});
