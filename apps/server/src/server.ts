import type { Server } from 'node:http';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { trackRequestsInFlight } from './shutdown.ts';
import { serveMetricsOnPort } from './plugins/metrics.ts';

function readConfig() {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
const app = await buildApp({ config });
const inFlight = trackRequestsInFlight(app);

// A promise nobody awaited must not end an instance that is serving others: log it loudly instead.
process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled rejection'));

/** Clients given this long after SIGTERM to finish sending their request before they are cut. */
const STALLED_BODY_GRACE_MS = 1_000;
/** Kept back from SHUTDOWN_TIMEOUT_MS to close what is left and exit cleanly before the deadline. */
const FINAL_CLOSE_MARGIN_MS = 500;

let metricsServer: Server | undefined;
let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing requests in flight');
  const stalled = setTimeout(() => inFlight.cutUnfinishedUploads(), STALLED_BODY_GRACE_MS);
  const deadline = setTimeout(
    () => {
      app.log.error('shutdown deadline: closing the connections still open');
      app.server.closeAllConnections();
    },
    Math.max(0, config.shutdownTimeoutMs - FINAL_CLOSE_MARGIN_MS),
  );
  const timer = setTimeout(() => {
    app.log.error('shutdown timed out: exiting with requests still open');
    process.exit(1);
  }, config.shutdownTimeoutMs);
  for (const handle of [stalled, deadline, timer]) handle.unref();
  await Promise.all([
    app.close(),
    new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(undefined))),
  ]);
  app.log.info('shut down cleanly');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ host: config.host, port: config.port });
if (config.metrics.port !== undefined) {
  metricsServer = await serveMetricsOnPort(app.metrics, config.host, config.metrics.port);
}
