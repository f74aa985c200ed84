import { defineConfig } from 'vitest/config';

// The database suite runs on PGlite, and again on the PostgreSQL server when TEST_DATABASE_URL is set.
const databases = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: databases.map((database) => ({
      extends: true,
      test: { name: database, env: { TEST_DB: database } },
    })),
  },
});
