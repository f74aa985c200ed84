// `npm test`: every check of the project, then one pass/fail summary with each step's time. Exits
// non-zero when anything failed. With TEST_DATABASE_URL set, the server's database tests run on
// PostgreSQL too.
//
// After the install, the steps run in lanes side by side (see below); a lane's output is kept in a
// file per step and printed whole when the step ends, so that lanes never interleave their lines.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ensureAdminBuild, ensureDependencies, ensureWebBuild, root, run } from './lib/project.mjs';

const reports = mkdtempSync(path.join(tmpdir(), 'skyway-test-'));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
/** Each step's outcome by name, in the order the steps ended. */
const results = new Map();

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The first line of a failure's message, without the terminal's colours. */
const firstLine = (message = '') =>
  stripVTControlCharacters(message)
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim() ?? '';

/**
 * What a failed test of a vitest report says. Its JSON report keeps of a timeout only the stack
 * vitest made for it, whose message is its placeholder `STACK_TRACE_ERROR`.
 */
function vitestFailure(test) {
  const line = firstLine(test.failureMessages[0]);
  return line === 'Error: STACK_TRACE_ERROR' ? `timed out after ${Math.round(test.duration)} ms` : line;
}

/** A vitest report's counts, and each failure as `file › test: first line of its message`. */
function vitestCounts(file) {
  const report = readJson(file);
  if (!report) return undefined;
  const failures = report.testResults.flatMap((result) => {
    const where = path.relative(root, result.name);
    const failedTests = result.assertionResults.filter((test) => test.status === 'failed');
    // A file that failed outside its tests (an import, a hook) has no failed test to name.
    if (failedTests.length === 0 && result.status === 'failed')
      return [`${where}: ${firstLine(result.message)}`];
    return failedTests.map((test) => `${where} › ${test.fullName}: ${vitestFailure(test)}`);
  });
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests,
    failures,
  };
}

/** A Playwright report's counts, and each failure as `file › test: first line of its error`. */
function playwrightCounts(file) {
  const report = readJson(file);
  if (!report?.stats) return undefined;
  const specs = (suite) => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specs)];
  const failures = report.suites.flatMap(specs).flatMap((spec) =>
    spec.tests
      .filter((test) => test.status === 'unexpected')
      .map((test) => {
        const error = test.results.at(-1)?.errors?.[0]?.message;
        return `${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error)}`;
      }),
  );
  const { stats } = report;
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped, failures };
}

/**
 * A step of the run: `action` gets the stdio its commands write to and resolves to their exit code
 * and, for a test suite, its counts.
 */
const step = (name, action) => ({ name, action });

const command = (cmd, args, options) => (stdio) =>
  run(cmd, args, { ...options, stdio }).then((code) => ({ code }));

/** Runs a step, its output straight to the terminal, or kept and printed whole when it ends (`kept`). */
async function runStep({ name, action }, { kept }) {
  const log = path.join(reports, `${name}.log`);
  const output = kept ? openSync(log, 'w') : undefined;
  const started = Date.now();
  console.log(kept ? `▶ ${name}` : `\n━━ ${name} ━━`);
  let code;
  let counts;
  try {
    ({ code, counts } = await action(kept ? ['ignore', output, output] : 'inherit'));
  } catch (error) {
    const message = `${error instanceof Error ? error.message : error}\n`;
    if (kept) writeSync(output, message);
    else process.stderr.write(message);
    code = 1;
  }
  const seconds = (Date.now() - started) / 1000;
  results.set(name, { ok: code === 0, counts, seconds });
  if (kept) {
    closeSync(output);
    console.log(`\n━━ ${name} (${seconds.toFixed(1)} s) ━━`);
    process.stdout.write(readFileSync(log));
  }
}

/** Runs lanes side by side, the steps of each one after another, their output kept per step. */
const sideBySide = (...lanes) =>
  Promise.all(
    lanes.map(async (steps) => {
      for (const each of steps) await runStep(each, { kept: true });
    }),
  );

function vitest(name, workspace, args = []) {
  const output = path.join(reports, `${name}.json`);
  return step(name, async (stdio) => {
    const code = await run(
      bin('vitest'),
      ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${output}`],
      { cwd: path.join(root, workspace), stdio },
    );
    return { code, counts: vitestCounts(output) };
  });
}

function playwright(name, workspace) {
  const output = path.join(reports, `${name}.json`);
  return step(name, async (stdio) => {
    const code = await run(bin('playwright'), ['test', '--reporter=list,json'], {
      cwd: path.join(root, workspace),
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: output },
      stdio,
    });
    return { code, counts: playwrightCounts(output) };
  });
}

function hasChineseFont() {
  const result = spawnSync('fc-list', [':lang=zh'], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() !== '';
}

/**
 * Debian's packages the tests run: Chromium for the browser tests, CJK fonts so the zh and tw
 * screenshots show text, and v2ray, the real proxy core our share links and the node agent are
 * tried on.
 */
function ensureTestPackages() {
  const missing = [
    ...(existsSync('/usr/bin/chromium') ? [] : ['chromium']),
    ...(hasChineseFont() ? [] : ['fonts-noto-cjk']),
    ...(existsSync('/usr/bin/v2ray') ? [] : ['v2ray']),
  ];
  if (missing.length === 0) return { code: 0 };
  console.log(`Installing ${missing.join(' and ')} with apt…`);
  const update = spawnSync('apt-get', ['update'], { stdio: 'inherit' });
  const install = spawnSync('apt-get', ['install', '-y', ...missing], { stdio: 'inherit' });
  const installed = existsSync('/usr/bin/chromium') && existsSync('/usr/bin/v2ray');
  return { code: update.status === 0 && install.status === 0 && installed ? 0 : 1 };
}

const started = Date.now();
// Everything after needs the dependencies, and the browsers and v2ray.
await runStep(
  step('install', async () => (ensureDependencies(), { code: 0 })),
  { kept: false },
);
await runStep(
  step('chromium, fonts and v2ray', async () => ensureTestPackages()),
  { kept: false },
);
// Two lanes on two cores: the server suite (one worker, mostly one core) beside every lighter step;
// then the browser suites alone, one journey at a time (playwright.config.ts): Chromium renders
// without a GPU, and journeys beside the server suite, or two at once, ran past their timeouts (a
// page still loading after 10 s).
await sideBySide(
  [vitest(process.env.TEST_DATABASE_URL ? 'server (PGlite + PostgreSQL)' : 'server (PGlite)', 'apps/server')],
  [
    step('lint', command('npm', ['run', 'lint'])),
    step('typecheck', command('npm', ['run', 'typecheck'])),
    vitest('shared', 'packages/shared'),
    vitest('node agent (v2ray)', 'apps/node-agent'),
    vitest('web', 'apps/web'),
    vitest('back office', 'apps/admin'),
    step('web build', async (stdio) => (await ensureWebBuild(stdio), { code: 0 })),
    step('back office build', async (stdio) => (await ensureAdminBuild(stdio), { code: 0 })),
    // The fault suite, where there is a PostgreSQL server and a Redis for it to break (it makes
    // databases of its own there): its scenarios one at a time, still beside the server suite.
    ...(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL
      ? [vitest('faults', 'apps/server', ['--config', 'vitest.faults.config.ts'])]
      : []),
  ],
);
if (!process.env.TEST_DATABASE_URL || !process.env.TEST_REDIS_URL)
  console.log('\nThe fault suite did not run: it needs TEST_DATABASE_URL and TEST_REDIS_URL.');
await sideBySide([playwright('browser (Playwright)', 'apps/web')]);
await sideBySide([playwright('back office in the browser', 'apps/admin')]);

const total = { passed: 0, failed: 0, skipped: 0 };
console.log('\n━━ Summary ━━');
for (const [name, { ok, counts, seconds }] of results) {
  const detail = counts ? `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped` : '';
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name.padEnd(30)} ${detail.padEnd(36)} ${seconds.toFixed(1)} s`);
  if (counts) {
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  }
  // A failing step without test counts (lint, typecheck, a crash) still counts as a failure.
  if (!ok && (!counts || counts.failed === 0)) total.failed += 1;
}
// What failed, by name, where the end of a long run's output shows it.
const failures = [...results].flatMap(([name, { counts }]) =>
  (counts?.failures ?? []).map((failure) => `  ${name}: ${failure}`.slice(0, 400)),
);
if (failures.length > 0) console.log(`\nFailed:\n${failures.join('\n')}`);
const entry = readJson(path.join(root, 'apps/web/dist/build-report.json'));
if (entry)
  console.log(`\nPublic pages' first load (HTML, JS, CSS): ${entry.publicEntry.gzipKilobytes} kB gzip`);
const passed = [...results.values()].every((r) => r.ok);
console.log(
  `\n${passed ? 'All checks passed' : 'Some checks FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s.`,
);
console.log(`Tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(passed ? 0 : 1);
