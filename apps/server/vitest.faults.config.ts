import { defineConfig } from 'vitest/config';

/**
 * The fault suite (`npm run test:faults`): real server processes on a real PostgreSQL, Redis and
 * SMTP, with their infrastructure broken under load. Needs TEST_DATABASE_URL and TEST_REDIS_URL.
 * One scenario file at a time: each starts its own instances and load, and two at once would
 * measure each other on a small machine.
 */
export default defineConfig({
  test: {
    include: ['faults/**/*.fault.ts'],
    globalSetup: ['faults/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
  },
});
