import type { ConfigEnv, UserConfigFnObject } from 'vite';
import { afterEach, expect, it } from 'vitest';
import viteConfig from '../vite.config.ts';

const shellNodeEnv = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = shellNodeEnv;
});

const buildWith = (env: Pick<ConfigEnv, 'command'>) =>
  (viteConfig as UserConfigFnObject)({ ...env, mode: 'production' });

it('builds the site for production even when the shell says NODE_ENV=development (npm start)', () => {
  process.env.NODE_ENV = 'development';
  buildWith({ command: 'build' });
  expect(process.env.NODE_ENV).toBe('production');
});

it('leaves NODE_ENV alone for the dev server', () => {
  process.env.NODE_ENV = 'development';
  buildWith({ command: 'serve' });
  expect(process.env.NODE_ENV).toBe('development');
});
