import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * docs/architecture.md is the map a newcomer reads in one sitting: a line per module of the server
 * ("- `name`: what it owns"), a link to every decisions page, and short enough to read at once.
 */

const SRC = path.dirname(new URL(import.meta.url).pathname);
const DOCS = path.join(SRC, '../../../docs');
const MAP_MAX_LINES = 300;

const map = readFileSync(path.join(DOCS, 'architecture.md'), 'utf8');
const folders = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const decisions = readdirSync(path.join(DOCS, 'decisions')).filter((name) => name.endsWith('.md'));

describe('the architecture map', () => {
  it('finds what it checks', () => {
    expect(folders(path.join(SRC, 'modules'))).toContain('access');
    expect(decisions.length).toBeGreaterThan(0);
  });

  it('gives every module of the server a line of its own', () => {
    const lines = new Set([...map.matchAll(/^- `([a-z-]+)`:/gm)].map((match) => match[1]));
    const missing = folders(path.join(SRC, 'modules')).filter((name) => !lines.has(name));
    expect(missing).toEqual([]);
  });

  it('links every decisions page', () => {
    const unlinked = decisions.filter((name) => !map.includes(`](decisions/${name})`));
    expect(unlinked).toEqual([]);
  });

  it(`is shorter than ${MAP_MAX_LINES} lines`, () => {
    expect(map.trimEnd().split('\n').length).toBeLessThan(MAP_MAX_LINES);
  });
});
