import { Agent } from './agent.ts';
import { ConfigError, loadAgentConfig } from './config.ts';
import { createCoreDriver } from './core/create-driver.ts';
import { createLogger } from './log.ts';
import { PanelClient } from './panel/panel-client.ts';
import { AGENT_VERSION } from './version.ts';

/**
 * `skyway-node-agent [--config FILE]`: runs until SIGTERM, SIGINT or SIGHUP, then reads the last
 * traffic into the outbox, stops the core and exits. The core is in a process group of its own, so
 * the signal reaches the agent alone even when sent to the agent's group (see `CoreProcess`).
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadAgentConfig(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`skyway-node-agent: ${error.message}\n`);
    process.exit(2);
  }
  const log = createLogger({ level: config.logLevel });
  const driver = createCoreDriver(
    config.core,
    {
      bin: config.coreBin,
      stateDir: config.stateDir,
      apiPort: config.apiPort,
      listen: config.listen,
      tls: config.tls,
      reality: config.reality,
      allowPrivateDestinations: config.allowPrivateDestinations,
    },
    log,
  );
  const panel = new PanelClient({
    url: config.panelUrl,
    token: config.nodeToken,
    agentVersion: AGENT_VERSION,
  });
  const agent = new Agent({ panel, driver, stateDir: config.stateDir, log, agentVersion: AGENT_VERSION });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    agent.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error('stopped with an error', { error });
        process.exit(1);
      },
    );
  };
  // SIGHUP (the terminal closed) too: by default it would end the agent without stopping the core.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
  process.on('unhandledRejection', (error) => log.error('unhandled rejection', { error }));

  log.info('starting', {
    version: AGENT_VERSION,
    core: config.core,
    core_bin: config.coreBin,
    panel: config.panelUrl,
    state_dir: config.stateDir,
  });
  await agent.start();
}

await main();
