// Steps shared by `npm start`, `npm test` and `npm run dev`; plain Node so they run before any install.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
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

const ADMIN_INPUTS = [
  'apps/admin/src',
  'apps/admin/public',
  'apps/admin/index.html',
  'apps/admin/vite.config.ts',
  'apps/admin/package.json',
  'packages/shared/src',
  'package-lock.json',
];

const SERVER_INPUTS = [
  'apps/server/src',
  'apps/server/scripts',
  'apps/server/package.json',
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

/**
 * Runs a workspace's build unless its output was built from exactly the current sources; resolves
 * once it is current. `stdio` is spawn's, for the build's output (the terminal unless told).
 */
async function ensureBuild(workspace, inputs, what, stdio = 'inherit') {
  const hash = createHash('sha256');
  for (const input of inputs) hashTree(hash, path.join(root, input));
  const digest = hash.digest('hex');
  const stamp = path.join(root, workspace, 'dist/.source-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  // Where the build's own output goes: a step's kept log, or the terminal.
  const line = `Building ${what}…\n`;
  if (Array.isArray(stdio) && typeof stdio[1] === 'number') writeSync(stdio[1], line);
  else process.stdout.write(line);
  if ((await run(npm, ['run', 'build', '-w', workspace], { stdio })) !== 0)
    throw new Error(`${what} build failed`);
  writeFileSync(stamp, digest);
}

/** Builds the web app unless dist was built from exactly the current sources. */
export const ensureWebBuild = (stdio) => ensureBuild('apps/web', WEB_INPUTS, 'the web app', stdio);

/** Builds the back office unless dist was built from exactly the current sources. */
export const ensureAdminBuild = (stdio) => ensureBuild('apps/admin', ADMIN_INPUTS, 'the back office', stdio);

/** Bundles the server unless dist was built from exactly the current sources. */
export const ensureServerBuild = (stdio) => ensureBuild('apps/server', SERVER_INPUTS, 'the server', stdio);

/** Starts the compiled API server (`ensureServerBuild` first) with plain node and the caller's environment. */
export function serverProcess(env = process.env) {
  return spawn(process.execPath, ['apps/server/dist/server.js'], { cwd: root, stdio: 'inherit', env });
}

/** Starts the API server from its TypeScript sources through the tsx loader (`npm run dev`). */
export function serverSourceProcess(args = [], env = process.env) {
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
