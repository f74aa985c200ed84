import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Logger } from '../log.ts';
import { writeFileAtomic } from '../lib/files.ts';
import { portOpen, sleep } from '../lib/wait.ts';

const READY_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_KEPT = 20;

export interface ExitDetail {
  code: number | null;
  signal: string | null;
}

/** Kills a core left running by an agent that died without stopping it (its pid file). */
async function killLeftover(pidFile: string, bin: string, log: Logger): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    return;
  }
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // Not running (or no /proc): nothing to kill.
  }
  if (pid > 1 && command.startsWith(bin)) {
    log.warn('stopping a core left running by an earlier agent', { pid });
    process.kill(pid, 'SIGKILL');
    await sleep(200);
  }
  await rm(pidFile, { force: true });
}

/**
 * The core as a child process: started with a config file, ready once the given ports accept
 * connections, stopped with SIGTERM (SIGKILL after 5 s). Its output goes to the log.
 *
 * It runs in a session and process group of its own, so a signal to the agent's group (a shell's
 * Ctrl-C, `kill -TERM -PGID`) reaches the agent alone: the agent reads the core's counters before it
 * stops the core itself. Whatever way the agent's process exits, a crash included, takes the core
 * with it; only a SIGKILL of the agent leaves it running, until the next start (`core.pid`).
 */
export class CoreProcess {
  private child: ChildProcess | undefined;
  private stopping = false;
  private exitListeners: ((detail: ExitDetail) => void)[] = [];
  private output: string[] = [];
  /** Run as the agent's process exits: the core must not outlive it. */
  private readonly killOnExit = () => this.child?.kill('SIGKILL');

  constructor(
    private readonly bin: string,
    private readonly pidFile: string,
    private readonly log: Logger,
  ) {}

  get running(): boolean {
    return this.child !== undefined;
  }

  onUnexpectedExit(listener: (detail: ExitDetail) => void): void {
    this.exitListeners.push(listener);
  }

  private keep(text: string, level: 'debug' | 'warn'): void {
    for (const line of text.split('\n').filter((entry) => entry.trim() !== '')) {
      this.output.push(line);
      if (this.output.length > OUTPUT_KEPT) this.output.shift();
      this.log[level]('core output', { line });
    }
  }

  async start(args: string[], readyPorts: number[]): Promise<void> {
    if (this.child) throw new Error('the core is running already');
    await killLeftover(this.pidFile, this.bin, this.log);
    for (const port of readyPorts) {
      if (await portOpen(port)) throw new Error(`port ${port} is in use by another program`);
    }
    this.output = [];
    this.stopping = false;
    const child = spawn(this.bin, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => this.keep(chunk.toString(), 'debug'));
    child.stderr?.on('data', (chunk: Buffer) => this.keep(chunk.toString(), 'warn'));
    const state: { ready: boolean; exited?: ExitDetail; spawnError?: Error } = { ready: false };
    child.once('error', (error) => {
      state.spawnError = error;
      if (this.child === child) this.child = undefined;
    });
    child.once('exit', (code, signal) => {
      state.exited = { code, signal };
      if (this.child === child) this.child = undefined;
      process.off('exit', this.killOnExit);
      void rm(this.pidFile, { force: true });
      if (!this.stopping && state.ready) {
        this.log.error('the core exited', { code, signal, output: this.output.slice(-5) });
        for (const listener of this.exitListeners) listener(state.exited);
      }
    });
    if (child.pid) {
      process.on('exit', this.killOnExit);
      await writeFileAtomic(this.pidFile, `${child.pid}\n`);
    }
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (const port of readyPorts) {
      while (!(await portOpen(port))) {
        if (state.spawnError) throw new Error(`cannot run ${this.bin}: ${state.spawnError.message}`);
        if (state.exited) throw new Error(`the core exited at start: ${this.output.join('\n')}`);
        if (Date.now() > deadline) {
          await this.stop();
          throw new Error(`the core did not listen on port ${port}: ${this.output.join('\n')}`);
        }
        await sleep(50);
      }
    }
    state.ready = true;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.stopping = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
    this.child = undefined;
    await rm(this.pidFile, { force: true });
  }
}
