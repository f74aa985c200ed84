import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const serverFile = path.resolve(import.meta.dirname, '../server.ts');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Everything the process wrote so far, stdout and stderr. */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * A real server process (`src/server.ts` through tsx) on 127.0.0.1 and a port of its own, without the
 * built pages; `env` names its database. Its SIGKILL goes to `cleanups`, for the suite's afterEach.
 */
export function startServerProcess(
  env: Record<string, string>,
  cleanups: (() => Promise<void> | void)[],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', serverFile], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      WEB_DIST_DIR: '/nonexistent',
      ADMIN_DIST_DIR: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  cleanups.push(() => void child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve({ child, port: Number(match[1]), output: () => output, exited });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}
