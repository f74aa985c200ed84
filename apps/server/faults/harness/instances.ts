import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { send, type Target } from './http.ts';
import { waitUntil } from '../../src/testing/poll.ts';

/** The repository's root: instances start from there, as an operator starts them. */
export const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');
const SERVER_ENTRY = 'apps/server/src/server.ts';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** performance.now() when the process ended. */
  at: number;
}

/** One server process (by default `node --import tsx apps/server/src/server.ts`), on its own port. */
export interface Instance extends Target {
  child: ChildProcess;
  /** Every line it wrote to stdout and stderr (JSON log lines, and anything else). */
  lines(): string[];
  /** Its JSON log lines at warn (40) or above. */
  warnings(): { level: number; text: string }[];
  /** The last lines, for failure messages. */
  tail(count?: number): string;
  running(): boolean;
  exited: Promise<ExitStatus>;
  /** Sends the signal and waits (at most `timeoutMs`) for the process to end. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<ExitStatus>;
}

// Processes still running when the test process ends are killed, whatever ended it.
const living = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of living) child.kill('SIGKILL');
});

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  const probe = createServer();
  return new Promise((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function levelOf(line: string): number | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const level = (JSON.parse(line) as { level?: unknown }).level;
    return typeof level === 'number' ? level : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts an instance with exactly `env` (plus PATH and HOME) and waits until it answers HTTP on
 * `/healthz`, whatever the status: the scenarios judge health themselves. Throws with its output if
 * it exits first or is not up within `readyTimeoutMs`.
 */
export async function startInstance(
  name: string,
  env: Record<string, string>,
  options: {
    readyTimeoutMs?: number;
    onSpawned?: (pid: number) => void;
    /** What node runs, instead of the sources through tsx (the compiled bundle, another app). */
    nodeArgs?: string[];
  } = {},
): Promise<Instance> {
  const port = Number(env.PORT);
  const child = spawn(process.execPath, options.nodeArgs ?? ['--import', 'tsx', SERVER_ENTRY], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  living.add(child);
  if (child.pid !== undefined) options.onSpawned?.(child.pid);
  const lines: string[] = [];
  let partial = '';
  const collect = (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts.filter((line) => line.trim() !== ''));
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<ExitStatus>((resolve) =>
    child.once('exit', (code, signal) => {
      living.delete(child);
      resolve({ code, signal, at: performance.now() });
    }),
  );
  const tail = (count = 30) => [...lines, partial].filter(Boolean).slice(-count).join('\n');
  const running = () => child.exitCode === null && child.signalCode === null;

  const instance: Instance = {
    name,
    port,
    child,
    lines: () => [...lines],
    warnings: () =>
      lines.flatMap((text) => {
        const level = levelOf(text);
        return level !== undefined && level >= 40 ? [{ level, text }] : [];
      }),
    tail,
    running,
    exited,
    stop: async (signal = 'SIGTERM', timeoutMs = 15_000) => {
      if (running()) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const status = await exited;
      clearTimeout(timer);
      return status;
    },
  };

  let answered: 'answering' | 'exited';
  try {
    ({ value: answered } = await waitUntil(
      `instance ${name} answering on port ${port}`,
      async () => {
        if (!running()) return 'exited' as const;
        const reply = await send(instance, { path: '/healthz', timeoutMs: 2000 });
        return reply.status === undefined ? undefined : ('answering' as const);
      },
      { timeoutMs: options.readyTimeoutMs ?? 60_000, intervalMs: 200 },
    ));
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(
      `${error instanceof Error ? error.message : error}\n--- output of ${name} ---\n${tail(60)}`,
      { cause: error },
    );
  }
  if (answered === 'exited') {
    const status = await exited;
    throw new Error(
      `instance ${name} exited (code ${status.code}, signal ${status.signal}) before answering\n` +
        `--- output of ${name} ---\n${tail(60)}`,
    );
  }
  return instance;
}
