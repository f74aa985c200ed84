// `npm run perf:start`: how long a warm `npm start` (dependencies installed, site built, server
// bundled, database existing) takes to serve /download, budget 5 s, and the server's memory once idle.
// For comparison it also starts the server from its TypeScript sources through the tsx loader, as
// production did before the server was compiled. Prints the figures; does not fail on them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from './lib/project.mjs';

const BUDGET_SECONDS = 5;
/** How long the server is left alone after serving /download before its memory is read. */
const SETTLE_MS = 3_000;
const port = 18000 + Math.floor(Math.random() * 1000);
const dataDir = mkdtempSync(path.join(tmpdir(), 'skyway-perf-'));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const rssKb = (id) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0);
const childrenOf = (id) =>
  readdirSync(`/proc/${id}/task`).flatMap((task) =>
    readFileSync(`/proc/${id}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
const descendantsOf = (id) => childrenOf(id).flatMap((child) => [child, ...descendantsOf(child)]);

/**
 * Resident memory in MB of the server: the process itself, or, when it is a launcher (npm start's
 * supervisor), what it started.
 */
function serverMemoryMb(pid, launcher) {
  const ids = launcher ? descendantsOf(pid) : [pid];
  return ids.reduce((sum, id) => sum + rssKb(id), 0) / 1024;
}

/** Starts a command, times it until /download is served, then reads its idle memory. */
async function startAndMeasure(args, { launcher }) {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/download`);
        if (res.ok && (await res.text()).includes('<div id="root">')) break;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120_000) throw new Error('the site did not come up within 120 s');
      await sleep(50);
    }
    const seconds = (performance.now() - started) / 1000;
    await sleep(SETTLE_MS);
    return { seconds, memoryMb: serverMemoryMb(child.pid, launcher) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
  }
}

try {
  const cold = await startAndMeasure(['scripts/start.mjs'], { launcher: true });
  console.log(
    `first start (new database${cold.seconds > 20 ? ', builds' : ''}): ${cold.seconds.toFixed(2)} s`,
  );
  const warm = await startAndMeasure(['scripts/start.mjs'], { launcher: true });
  console.log(
    `warm npm start (compiled server) → /download served in ${warm.seconds.toFixed(2)} s ` +
      `(budget ${BUDGET_SECONDS} s); server idle memory ${warm.memoryMb.toFixed(0)} MB RSS`,
  );
  const loader = await startAndMeasure(['--import', 'tsx', 'apps/server/src/server.ts'], { launcher: false });
  console.log(
    `the same server through the tsx loader → /download served in ${loader.seconds.toFixed(2)} s; ` +
      `idle memory ${loader.memoryMb.toFixed(0)} MB RSS`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
