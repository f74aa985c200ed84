// `npm run perf:start`: how long a warm `npm start` (dependencies installed, site built, database
// existing) takes to serve /download. Budget: 5 s. Prints the figure; does not fail on it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from './lib/project.mjs';

const BUDGET_SECONDS = 5;
const port = 18000 + Math.floor(Math.random() * 1000);
const dataDir = mkdtempSync(path.join(tmpdir(), 'skyway-perf-'));

async function startAndTime() {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/download`);
        if (res.ok && (await res.text()).includes('<div id="root">'))
          return (performance.now() - started) / 1000;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120_000) throw new Error('the site did not come up within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
  }
}

try {
  const cold = await startAndTime();
  console.log(`first start (new database${cold > 20 ? ', site build' : ''}): ${cold.toFixed(2)} s`);
  const warm = await startAndTime();
  console.log(`warm npm start → /download served in ${warm.toFixed(2)} s (budget ${BUDGET_SECONDS} s)`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
