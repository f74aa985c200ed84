import { defineConfig } from 'vitest/config';

// The database suite runs on PGlite, and again on the PostgreSQL server when TEST_DATABASE_URL is set.
const databases = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['src/testing/migrated-database.global.ts'],
    // The files share their worker's loaded modules instead of loading the app again each (the
    // import was as long as the tests): every file opens its own app and database, and no file
    // mocks a module.
    isolate: false,
    projects: databases.map((database) => ({
      extends: true,
      test: { name: database, env: { TEST_DB: database } },
    })),
  },
});
