import { FIRST_PAGES, type FirstPagePath } from '@skyway/shared/first-pages';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { legalNamespace } from '../features/legal/documents.ts';
import { routes } from './router.tsx';
import router from './router.tsx?raw';

describe('the pages a visitor opens first', () => {
  it.each(Object.keys(FIRST_PAGES) as FirstPagePath[])(
    '%s: the router loads the module the server names',
    (path) => {
      const { module } = FIRST_PAGES[path];
      expect(router).toContain(`import('../${module.replace(/^src\//, '')}')`);
      expect(matchRoutes(routes, path)?.at(-1)?.route.path).toBe(path);
    },
  );

  it('gives each legal document the shared legal texts and its own', () => {
    for (const document of ['privacy', 'service', 'use'] as const) {
      expect(FIRST_PAGES[`/${document}`].namespaces).toEqual(['legal', legalNamespace(document)]);
    }
  });
});
