// `npm test`: every check of the project, in order, then one pass/fail summary. Exits non-zero when
// anything failed. With TEST_DATABASE_URL set, the server's database tests run on PostgreSQL too.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureAdminBuild, ensureDependencies, ensureWebBuild, root, run } from './lib/project.mjs';

const reports = mkdtempSync(path.join(tmpdir(), 'skyway-test-'));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const results = [];

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function vitestCounts(file) {
  const report = readJson(file);
  return (
    report && {
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests,
    }
  );
}

function playwrightCounts(file) {
  const stats = readJson(file)?.stats;
  return stats && { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
}

async function step(name, action) {
  console.log(`\n━━ ${name} ━━`);
  const started = Date.now();
  let code;
  let counts;
  try {
    ({ code, counts } = await action());
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    code = 1;
  }
  results.push({ name, ok: code === 0, counts, seconds: (Date.now() - started) / 1000 });
}

const command = (cmd, args, options) => async () => ({ code: await run(cmd, args, options) });

function vitest(name, workspace) {
  const output = path.join(reports, `${name}.json`);
  return step(name, async () => {
    const code = await run(
      bin('vitest'),
      ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${output}`],
      {
        cwd: path.join(root, workspace),
      },
    );
    return { code, counts: vitestCounts(output) };
  });
}

function playwright(name, workspace) {
  const output = path.join(reports, `${name}.json`);
  return step(name, async () => {
    const code = await run(bin('playwright'), ['test', '--reporter=list,json'], {
      cwd: path.join(root, workspace),
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: output },
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

await step('install', async () => (ensureDependencies(), { code: 0 }));
await step('chromium, fonts and v2ray', async () => ensureTestPackages());
await step('lint', command('npm', ['run', 'lint']));
await step('typecheck', command('npm', ['run', 'typecheck']));
await vitest('shared', 'packages/shared');
await vitest(
  process.env.TEST_DATABASE_URL ? 'server (PGlite + PostgreSQL)' : 'server (PGlite)',
  'apps/server',
);
await vitest('node agent (v2ray)', 'apps/node-agent');
await vitest('web', 'apps/web');
await step('web build', async () => (ensureWebBuild(), { code: 0 }));
await step('back office build', async () => (ensureAdminBuild(), { code: 0 }));
await playwright('browser (Playwright)', 'apps/web');
await playwright('back office in the browser', 'apps/admin');

const total = { passed: 0, failed: 0, skipped: 0 };
console.log('\n━━ Summary ━━');
for (const { name, ok, counts, seconds } of results) {
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
const entry = readJson(path.join(root, 'apps/web/dist/build-report.json'));
if (entry)
  console.log(`\nPublic pages' first load (HTML, JS, CSS): ${entry.publicEntry.gzipKilobytes} kB gzip`);
console.log(`\n${results.every((r) => r.ok) ? 'All checks passed.' : 'Some checks FAILED.'}`);
console.log(`Tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
