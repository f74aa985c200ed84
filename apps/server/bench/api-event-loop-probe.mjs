// Loaded with `node --import` into a process that `npm run bench:api` measures (the product or a
// reference app), which it leaves otherwise as it is. On SIGUSR2 it writes the event-loop delay seen
// since the previous SIGUSR2 as one JSON line on stderr, and starts counting again. Plain JavaScript,
// so that the compiled server runs without a TypeScript loader.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();

const ms = (nanoseconds) => nanoseconds / 1e6;

process.on('SIGUSR2', () => {
  const report = { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) };
  process.stderr.write(`${JSON.stringify({ eventLoopDelayMs: report })}\n`);
  delay.reset();
});
