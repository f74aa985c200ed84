import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

// The public pages import constants, rules and types from the modules beside `schemas/` and must not
// carry zod's runtime: those modules may take zod and the schemas as types only.
const zodFreeModules = readdirSync(import.meta.dirname).filter(
  (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
);

const valueImportsOfZod = (source: string) =>
  [...source.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'(zod|\.\/schemas\/[^']+)';/gms)].map(
    (match) => match[1],
  );

it.each(zodFreeModules)('%s takes zod and the schemas as types only', (name) => {
  expect(valueImportsOfZod(readFileSync(`${import.meta.dirname}/${name}`, 'utf8'))).toEqual([]);
});

it('sees a value import of zod', () => {
  expect(valueImportsOfZod("import { z } from 'zod';\nimport type { a } from './schemas/a.ts';")).toEqual([
    'zod',
  ]);
  expect(valueImportsOfZod("import {\n  a,\n} from './schemas/a.ts';")).toEqual(['./schemas/a.ts']);
});
