import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { LOWER_PRIORITY_BY, lowPriorityThreads } from './low-priority-threads.ts';

describe('low-priority threads', () => {
  it("run the module's function and answer its value", async () => {
    const threads = lowPriorityThreads('node:path', 2);
    expect(await threads.call('join', ['a', 'b'])).toBe('a/b');
    expect(
      await Promise.all([threads.call('basename', ['/x/y']), threads.call('extname', ['z.ts'])]),
    ).toEqual(['y', '.ts']);
  });

  it('run below the priority of the rest of the process', async () => {
    const threads = lowPriorityThreads('node:os', 1);
    // On Linux, priority 0 names the calling thread: here the thread's own.
    expect(await threads.call('getPriority', [0])).toBe(getPriority(0) + LOWER_PRIORITY_BY);
  });

  it('fail a call with the error it threw, and go on serving', async () => {
    const threads = lowPriorityThreads('node:os', 1);
    await expect(threads.call('getPriority', ['not a process'])).rejects.toThrow(/"pid" argument/);
    await expect(threads.call('nope', [])).rejects.toThrow(/not a function/);
    expect(await threads.call('getPriority', [0])).toBe(getPriority(0) + LOWER_PRIORITY_BY);
  });

  it('refuse more calls at once than they have threads', async () => {
    const threads = lowPriorityThreads('node:os', 1);
    const first = threads.call('getPriority', [0]);
    await expect(threads.call('getPriority', [0])).rejects.toThrow(/more than 1 calls at once/);
    await first;
  });
});
