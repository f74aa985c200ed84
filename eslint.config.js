import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { readdirSync } from 'node:fs';

/** The feature folders of a front end (the site, the back office), read from disk. */
const featuresOf = (app) =>
  readdirSync(new URL(`./apps/${app}/src/features/`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

// Features never import each other and never the app layer; the app layer composes them. Imports
// are relative, so one block per feature folder (read from disk, so a new feature is covered at
// once) forbids both a path through `features/<other>` and a hop straight to a sibling `../<other>`.
const featureWalls = (app) => {
  const features = featuresOf(app);
  return features.map((feature) => ({
    files: [`apps/${app}/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `(^|/)features/(?!${feature}(/|$))`,
              message: 'Features never import each other: compose them in src/app.',
            },
            ...(features.length > 1
              ? [
                  {
                    regex: `^(\\.\\./)+(${features.filter((other) => other !== feature).join('|')})(/|$)`,
                    message: 'Features never import each other: compose them in src/app.',
                  },
                ]
              : []),
            { regex: '^(\\.\\./)+app(/|$)', message: 'Features never import the app layer.' },
          ],
        },
      ],
    },
  }));
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/data/**',
      'apps/server/src/db/migrations/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // The shared package runs in the browser too: no server-side imports outside its tests.
    files: ['packages/shared/src/**/*.ts'],
    ignores: ['packages/shared/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'drizzle-orm*', 'fastify*', 'pg'] }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/admin/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The server's test files share their worker's modules (vitest.config.ts: isolate false), so a
    // module mocked in one file would stay mocked in the next.
    files: ['apps/server/{src,bench}/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'vi',
          property: 'mock',
          message: 'The server suite shares modules between files: pass a stand-in instead.',
        },
        {
          object: 'vi',
          property: 'doMock',
          message: 'The server suite shares modules between files: pass a stand-in instead.',
        },
      ],
    },
  },
  ...featureWalls('web'),
  ...featureWalls('admin'),
  {
    // Shared code sits below the features and the app layer.
    files: ['apps/{web,admin}/src/{components,lib}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(features|app)(/|$)',
              message: 'Shared code (components, lib) never imports features or the app layer.',
            },
          ],
        },
      ],
    },
  },
);
