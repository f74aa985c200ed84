/** Runs at most `limit` tasks at once; the others start in the order they came, as places free up. */
export interface Gate {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createGate(limit: number): Gate {
  let running = 0;
  const waiting: (() => void)[] = [];
  const leave = () => {
    const next = waiting.shift();
    // The place passes straight to the next task, so a newcomer cannot take it first.
    if (next) next();
    else running -= 1;
  };
  return {
    async run(task) {
      if (running < limit) running += 1;
      else await new Promise<void>((enter) => waiting.push(enter));
      try {
        return await task();
      } finally {
        leave();
      }
    },
  };
}
