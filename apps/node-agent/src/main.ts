import { Agent } from './agent.ts';
import { ConfigError, loadAgentConfig } from './config.ts';
import { createCoreDriver } from './core/create-driver.ts';
import { createLogger } from './log.ts';
import { PanelClient } from './panel/panel-client.ts';
import { AGENT_VERSION } from './version.ts';

/** `skyway-node-agent [--config FILE]`: runs until SIGTERM or SIGINT, then stops the core and exits. */
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
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
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
