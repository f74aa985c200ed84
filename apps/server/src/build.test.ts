import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './testing/test-database.ts';

const server = path.resolve(import.meta.dirname, '..');
// Inside the package, so that the bundle finds the installed packages it leaves out, as dist/ does.
const cache = path.join(server, 'node_modules/.cache');
mkdirSync(cache, { recursive: true });
const work = mkdtempSync(path.join(cache, 'skyway-build-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

async function waitForHealth(origin: string): Promise<Response> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    try {
      return await fetch(`${origin}/healthz`);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

// The bundle is the same whatever database the suite runs on: built and started once, on PGlite.
describe.skipIf(testDatabaseKind === 'postgres')('the compiled server', () => {
  it('builds into one file with its migrations and runs on plain node, no TypeScript loader', async () => {
    const out = path.join(work, 'dist');
    const built = spawnSync(process.execPath, [path.join(server, 'scripts/build.mjs'), out], {
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
    expect(readFileSync(path.join(out, 'server.js'), 'utf8')).not.toMatch(/from ["']@skyway\/shared/);

    const port = await freePort();
    const child = spawn(process.execPath, [path.join(out, 'server.js')], {
      env: {
        PATH: process.env.PATH,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: path.join(work, 'data'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const origin = `http://127.0.0.1:${port}`;
      const health = await waitForHealth(origin);
      expect(health.status, stderr).toBe(200);
      // The migrations ran from the copy beside the bundle: the seeded plans are there.
      const plans = await fetch(`${origin}/web/plan/list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const reply = (await plans.json()) as { code: number; data: { plans: { period: string }[] } };
      expect(reply.code).toBe(200);
      expect(reply.data.plans.map((plan) => plan.period)).toEqual(['month', 'half_year', 'year']);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
    }
  }, 90_000);
});
