// `npm run perf:pages`: the public pages' budgets, measured on the real server with the built site.
// - first load of /download (HTML, JS and CSS as served, gzip): at most 120 kB;
// - Lighthouse mobile scores of /download and /privacy: performance, accessibility, best practices
//   and SEO each at least 95 (Debian's Chromium, /usr/bin/chromium or CHROME_PATH). Each score is the
//   median of LIGHTHOUSE_RUNS runs, as Lighthouse's own guidance on variability advises: on a small
//   machine one run's performance score swings by ten points either way.
// Prints every figure; exits 1 when one is over budget.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureWebBuild, root } from './lib/project.mjs';

const FIRST_LOAD_BUDGET_KB = 120;
const SCORE_BUDGET = 95;
const PAGES = ['/download', '/privacy'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const LIGHTHOUSE_RUNS = 5;
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
].join(' ');

const work = mkdtempSync(path.join(tmpdir(), 'skyway-pages-'));
const port = 19000 + Math.floor(Math.random() * 1000);
const origin = `http://127.0.0.1:${port}`;

async function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let waited = 0; waited < 60_000; waited += 100) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('the server did not start');
}

/** Bytes on the wire (gzip, as the server sends them) of a page and the JS and CSS its HTML loads. */
async function firstLoad(page) {
  const get = (url) =>
    new Promise((resolve, reject) => {
      http
        .get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () => {
            const wire = Buffer.concat(chunks);
            const gzipped = res.headers['content-encoding'] === 'gzip';
            resolve({ bytes: wire.length, text: (gzipped ? gunzipSync(wire) : wire).toString() });
          });
        })
        .on('error', reject);
    });
  const html = await get(`${origin}${page}`);
  const assets = [...html.text.matchAll(/<(?:script[^>]+src|link[^>]+href)="(\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1],
  );
  const files = [{ file: page, bytes: html.bytes }];
  for (const asset of new Set(assets))
    files.push({ file: asset, bytes: (await get(`${origin}${asset}`)).bytes });
  return files;
}

function lighthouseRun(page, run) {
  const output = path.join(work, `${page.slice(1)}-${run}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(root, 'node_modules/.bin/lighthouse'),
      [
        `${origin}${page}`,
        `--chrome-flags=${CHROME_FLAGS}`,
        `--only-categories=${CATEGORIES.join(',')}`,
        '--output=json',
        `--output-path=${output}`,
        '--quiet',
      ],
      {
        env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
        stdio: 'inherit',
      },
    );
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`lighthouse exited with ${code} on ${page}`));
      const report = JSON.parse(readFileSync(output, 'utf8'));
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => [c, Math.round(report.categories[c].score * 100)]),
      );
      const failed = Object.values(report.audits)
        .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === 'binary')
        .map((audit) => audit.id);
      resolve({ scores, failed });
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Each category's median score over LIGHTHOUSE_RUNS runs, and the audits failing in any run. */
async function lighthouse(page) {
  const runs = [];
  for (let run = 1; run <= LIGHTHOUSE_RUNS; run++) {
    // Lighthouse now and then fails to record a trace (NO_NAVSTART): such a run is made again.
    runs.push(await lighthouseRun(page, run).catch(() => lighthouseRun(page, run)));
  }
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((r) => r.scores[c]))]));
  const runsScores = CATEGORIES.map((c) => `${c} ${runs.map((r) => r.scores[c]).join('/')}`).join(', ');
  return { scores, failed: [...new Set(runs.flatMap((r) => r.failed))], runsScores };
}

ensureWebBuild();
const server = await startServer();
let overBudget = false;
try {
  const files = await firstLoad('/download');
  const totalKb = files.reduce((sum, f) => sum + f.bytes, 0) / 1024;
  console.log('\nFirst load of /download (gzip):');
  for (const f of files) console.log(`  ${(f.bytes / 1024).toFixed(1).padStart(6)} kB  ${f.file}`);
  const fits = totalKb <= FIRST_LOAD_BUDGET_KB;
  overBudget ||= !fits;
  console.log(
    `  ${totalKb.toFixed(1).padStart(6)} kB  total (budget ${FIRST_LOAD_BUDGET_KB} kB) ${fits ? 'OK' : 'OVER'}`,
  );

  console.log(`\nLighthouse, mobile (median of ${LIGHTHOUSE_RUNS} runs):`);
  for (const page of PAGES) {
    const { scores, failed, runsScores } = await lighthouse(page);
    const low = CATEGORIES.filter((c) => scores[c] < SCORE_BUDGET);
    overBudget ||= low.length > 0;
    const figures = CATEGORIES.map((c) => `${c} ${scores[c]}`).join(', ');
    console.log(`  ${page.padEnd(10)} ${figures} ${low.length ? `BELOW ${SCORE_BUDGET}` : 'OK'}`);
    console.log(`             runs: ${runsScores}`);
    if (failed.length) console.log(`             failing audits: ${failed.join(', ')}`);
  }
} finally {
  server.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
console.log(overBudget ? '\nSome budgets are NOT met.' : '\nAll page budgets met.');
process.exit(overBudget ? 1 : 0);
