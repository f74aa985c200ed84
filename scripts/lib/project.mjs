// Steps shared by `npm start`, `npm test` and `npm run dev`; plain Node so they run before any install.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command in the project root with inherited output; resolves to its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

/** Installs dependencies when node_modules is missing or older than the lock file. */
export function ensureDependencies() {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing dependencies (first run)…');
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm ci failed');
}

const WEB_INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'apps/web/scripts',
  'packages/shared/src',
  'package-lock.json',
];

function hashTree(hash, target) {
  if (!existsSync(target)) return;
  if (statSync(target).isDirectory()) {
    for (const entry of readdirSync(target).sort()) hashTree(hash, path.join(target, entry));
    return;
  }
  hash.update(path.relative(root, target));
  hash.update(readFileSync(target));
}

/** Builds the web app unless dist was built from exactly the current sources. */
export function ensureWebBuild() {
  const hash = createHash('sha256');
  for (const input of WEB_INPUTS) hashTree(hash, path.join(root, input));
  const digest = hash.digest('hex');
  const stamp = path.join(root, 'apps/web/dist/.source-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  console.log('Building the web app…');
  const result = spawnSync(npm, ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('web build failed');
  writeFileSync(stamp, digest);
}

/** Starts the API server (TypeScript through tsx) with the caller's environment. */
export function serverProcess(args = [], env = process.env) {
  return spawn(process.execPath, ['--import', 'tsx', ...args, 'apps/server/src/server.ts'], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
}

/** Forwards SIGINT/SIGTERM to children and exits with the first child's code. */
export function superviseChildren(children) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => children.forEach((child) => child.kill(signal)));
  }
  for (const child of children) {
    child.on('exit', (code, signal) => {
      children.forEach((other) => other !== child && other.kill('SIGTERM'));
      process.exitCode = code ?? (signal ? 0 : 1);
    });
  }
}
