import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { lockDataDirectory } from './data-dir-lock.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'skyway-lock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Another process that takes the data directory and keeps it until it is killed. */
async function holdInAnotherProcess(dir: string) {
  const script = path.join(dir, '..', `${path.basename(dir)}-holder.mjs`);
  writeFileSync(
    script,
    `import { lockDataDirectory } from ${JSON.stringify(path.join(import.meta.dirname, 'data-dir-lock.ts'))};
lockDataDirectory(process.argv[2], 'the holder');
console.log('held');
setInterval(() => undefined, 60_000);`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => {
    child.kill('SIGKILL');
    rmSync(script, { force: true });
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    void exited.then(() => reject(new Error('the holder exited')));
  });
  return { pid: child.pid, kill: () => (child.kill('SIGKILL'), exited) };
}

describe('the embedded database, one process at a time', () => {
  it('refuses a second process while the first lives, untouched, and is taken once the first is killed', async () => {
    const dir = dataDir();
    const holder = await holdInAnotherProcess(dir);

    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(
      `The embedded database in ${dir} is open in another process: the holder (pid ${holder.pid}, since `,
    );
    expect(readdirSync(dir)).toEqual(['skyway.pid']);

    // SIGKILL: no chance to remove its file; the next process finds it dead and takes over.
    await holder.kill();
    const release = lockDataDirectory(dir, 'the next one');
    expect(() => lockDataDirectory(dir, 'a third')).toThrow('is open in another process: the next one');
    release();
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

  it.runIf(existsSync('/proc/self/stat'))(
    'does not take a pid reused by another process for the holder',
    () => {
      const dir = dataDir();
      // This process's pid, with a start time it does not have: the holder died and its pid was reused.
      const since = new Date().toISOString();
      writeFileSync(
        path.join(dir, 'skyway.pid'),
        JSON.stringify({ pid: process.pid, started: '1', name: 'x', since }),
      );
      lockDataDirectory(dir, 'the next one')();
      expect(readdirSync(dir)).toEqual([]);
    },
  );
});
