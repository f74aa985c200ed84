// `npm run perf:pages`: the public pages' budgets, measured on the real server with the built site.
// - first load of /download, /privacy and /login: everything Debian's Chromium fetches when it opens
//   the page cold, until the network is idle (document, scripts, styles, translations, icon, the
//   site's calls), each body counted as transferred, with `Accept-Encoding: gzip`: at most 120 kB
//   (1 kB = 1000 bytes; stretch goal 90 kB) in each of the site's languages. The same load with
//   Chromium's own encodings (brotli) is printed beside it. Headers are printed, not counted: the
//   server speaks HTTP/1.1 here, and behind a load balancer HTTP/2 sends repeated ones compressed;
// - Lighthouse mobile scores of the same pages: performance, accessibility, best practices and SEO
//   each at least 95 (/usr/bin/chromium or CHROME_PATH). Each score is the median of
//   LIGHTHOUSE_RUNS runs, as Lighthouse's own guidance on variability advises: on a small machine
//   one run's performance score swings by ten points either way. `--first-load` skips them.
// Prints every figure; exits 1 when one is over budget.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../apps/web/e2e/chromium.mjs';
import { firstLoad, launchChromium } from './lib/first-load.mjs';
import { ensureWebBuild, root } from './lib/project.mjs';

const FIRST_LOAD_BUDGET_KB = 120;
const FIRST_LOAD_STRETCH_KB = 90;
const SCORE_BUDGET = 95;
const PAGES = ['/download', '/privacy', '/login'];
/** The browser languages that pick each of the site's languages (en, zh, tw). */
const LOCALES = ['en-US', 'zh-CN', 'zh-TW'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const LIGHTHOUSE_RUNS = 5;
/** `--first-load`: the first loads only, without the Lighthouse runs (a few seconds, not minutes). */
const firstLoadOnly = process.argv.includes('--first-load');
/** Lighthouse launches Chromium itself, headless, with the flags every browser run here uses. */
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', ...CHROMIUM_ARGS].join(' ');

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

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const sum = (files, key = 'bytes') => files.reduce((total, file) => total + file[key], 0);

/**
 * The page's first load in each language, twice: with `Accept-Encoding: gzip` (the budget) and with
 * Chromium's own header, which this server answers with brotli.
 */
async function measureFirstLoad(browser, page) {
  const loads = [];
  for (const locale of LOCALES) {
    const gzip = await firstLoad(browser, `${origin}${page}`, { locale, acceptEncoding: 'gzip' });
    const brotli = await firstLoad(browser, `${origin}${page}`, { locale });
    loads.push({ locale, gzip, brotli, total: sum(gzip) });
  }
  return loads;
}

/** Prints the files of the heaviest language and every language's total; true when within budget. */
function reportFirstLoad(page, loads) {
  const heaviest = loads.reduce((max, load) => (load.total > max.total ? load : max));
  const column = (text) => text.padStart(9);
  console.log(`\n${page} (the files in ${heaviest.locale}, the heaviest language)`);
  console.log(`  ${column('gzip')}  ${column('brotli')}  file`);
  for (const file of heaviest.gzip) {
    const brotli = heaviest.brotli.find((other) => other.file === file.file);
    const note = file.encoding === 'identity' ? ' (sent uncompressed)' : '';
    console.log(
      `  ${column(kB(file.bytes))}  ${column(brotli ? kB(brotli.bytes) : '-')}  ${file.file}${note}`,
    );
  }
  for (const load of loads) {
    const headers = `headers ${kB(sum(load.gzip, 'headerBytes'))}, not counted`;
    console.log(
      `  ${column(kB(load.total))}  ${column(kB(sum(load.brotli)))}  total, ${load.locale} (${headers})`,
    );
  }
  const fits = heaviest.total <= FIRST_LOAD_BUDGET_KB * 1000;
  const stretch = heaviest.total <= FIRST_LOAD_STRETCH_KB * 1000;
  console.log(
    `  budget ${FIRST_LOAD_BUDGET_KB} kB gzip: ${fits ? 'OK' : 'OVER'}; ` +
      `stretch goal ${FIRST_LOAD_STRETCH_KB} kB: ${stretch ? 'met' : 'not met'}`,
  );
  return fits;
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
        env: { ...process.env, CHROME_PATH: CHROMIUM_PATH },
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

await ensureWebBuild();
const server = await startServer();
let overBudget = false;
try {
  console.log('\nFirst load: what Chromium fetches until the network is idle, bodies as transferred');
  const browser = await launchChromium();
  try {
    for (const page of PAGES) {
      const fits = reportFirstLoad(page, await measureFirstLoad(browser, page));
      overBudget ||= !fits;
    }
  } finally {
    await browser.close();
  }

  if (!firstLoadOnly) console.log(`\nLighthouse, mobile (median of ${LIGHTHOUSE_RUNS} runs):`);
  for (const page of firstLoadOnly ? [] : PAGES) {
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
