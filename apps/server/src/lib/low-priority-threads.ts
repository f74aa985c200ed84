import { Worker } from 'node:worker_threads';

/** How much lower than the rest of the process the threads run (Linux niceness, 0 to 19). */
export const LOWER_PRIORITY_BY = 10;

// The thread's whole program: it lowers its own priority (on Linux, priority 0 names the calling
// thread), loads the module, and runs the named synchronous function of it on each message. Given
// as text, so that it needs no file of its own beside the bundle.
const THREAD_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
try { require('node:os').setPriority(0, workerData.niceness); } catch {}
const library = require(workerData.module);
parentPort.on('message', ({ name, args }) => {
  try {
    parentPort.postMessage({ value: library[name](...args) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Job {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * Threads that run a module's synchronous, CPU-bound functions below the priority of the rest of
 * the process, one call per thread at a time. The event loop, and every other process on the
 * machine (the database beside it), then keep their cores when they need them: a burst of
 * password hashes waits instead of slowing every other call. `threads` at most; callers limit how
 * many calls they make at once to that (see lib/gate.ts), and a call beyond it throws.
 */
export interface LowPriorityThreads {
  call<T>(name: string, args: unknown[]): Promise<T>;
}

/** `module` is a resolved path (`createRequire(import.meta.url).resolve(...)`) of a CommonJS module. */
export function lowPriorityThreads(module: string, threads: number): LowPriorityThreads {
  const idle: Worker[] = [];
  /** The call each busy thread is running. */
  const running = new Map<Worker, Job>();
  let started = 0;

  const finish = (worker: Worker) => {
    const job = running.get(worker);
    running.delete(worker);
    return job;
  };

  const start = () => {
    const worker = new Worker(THREAD_PROGRAM, {
      eval: true,
      workerData: { module, niceness: LOWER_PRIORITY_BY },
    });
    started += 1;
    worker.on('message', (reply: { value?: unknown; error?: string }) => {
      const job = finish(worker);
      // An idle thread does not keep the process alive.
      worker.unref();
      idle.push(worker);
      if (reply.error !== undefined) job?.reject(new Error(reply.error));
      else job?.resolve(reply.value);
    });
    // A thread that dies fails its call; the next call starts another.
    worker.on('error', (error) => finish(worker)?.reject(error));
    worker.on('exit', () => {
      started -= 1;
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      finish(worker)?.reject(new Error('the thread ended'));
    });
    return worker;
  };

  return {
    call<T>(name: string, args: unknown[]) {
      const worker = idle.pop() ?? (started < threads ? start() : undefined);
      if (!worker) return Promise.reject(new Error(`more than ${threads} calls at once`));
      worker.ref();
      return new Promise<T>((resolve, reject) => {
        running.set(worker, { resolve: resolve as (value: unknown) => void, reject });
        worker.postMessage({ name, args });
      });
    },
  };
}
