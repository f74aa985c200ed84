import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from './agent.ts';
import { createCoreDriver } from './core/create-driver.ts';
import type { NodeCredential, NodeInbound } from './core/driver.ts';
import { memoryLogger } from './log.ts';
import { sleep } from './lib/wait.ts';
import type { NodeConfig } from './panel/panel-client.ts';
import { FakePanel } from './testing/fake-panel.ts';
import { freePort } from './testing/ports.ts';
import {
  clientOutbound,
  fetchThroughCore,
  selfSignedCertificate,
  startPage,
  testInbound,
  V2RAY_BIN,
} from './testing/v2ray-client.ts';
import { present } from './testing/present.ts';

/*
 * The agent on the real core (v2ray 4.34 on 127.0.0.1) with an in-memory panel: credentials pushed
 * by the change stream or pulled, traffic reported from the on-disk outbox, and what survives a
 * crash. The same journeys run against the real panel once its node routes land.
 */
const PAGE_BYTES = 16 * 1024;
const certificate = selfSignedCertificate('localhost');
let page: { url: string; body: string; server: Server };
const stateDirs: string[] = [];

beforeAll(async () => {
  page = await startPage(PAGE_BYTES);
});
afterAll(() => {
  page?.server.close();
  certificate.remove();
  for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
});

function newStateDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'node-agent-state-'));
  stateDirs.push(dir);
  return dir;
}

function credential(name: string): NodeCredential {
  return {
    id: crypto.randomUUID(),
    email: `${name}@node.test`,
    uuid: crypto.randomUUID(),
    password: `pw-${name}`,
    refused: [],
    expires_at: null,
  };
}

async function nodeConfig(fields: Partial<NodeConfig> = {}): Promise<NodeConfig> {
  return {
    node: { id: crypto.randomUUID(), name: 'Test node', host: '127.0.0.1' },
    inbounds: [
      testInbound({ tag: 'vless', protocol: 'vless', port: await freePort() }),
      testInbound({
        tag: 'vmess-ws',
        protocol: 'vmess',
        port: await freePort(),
        transport: 'ws',
        path: '/ws',
      }),
    ],
    report_interval: 3_600,
    pull_interval: 3_600,
    ...fields,
  };
}

function newAgent(panel: FakePanel, stateDir: string, apiPort: number) {
  const log = memoryLogger();
  const driver = createCoreDriver(
    'v2ray',
    {
      bin: V2RAY_BIN,
      stateDir,
      apiPort,
      listen: '127.0.0.1',
      tls: { certificateFile: certificate.certificateFile, keyFile: certificate.keyFile },
      allowPrivateDestinations: true,
    },
    log,
  );
  const agent = new Agent({
    panel,
    driver,
    stateDir,
    log,
    agentVersion: 'test',
    retry: { baseMs: 50, maxMs: 200 },
    streamBackoff: { baseMs: 50, maxMs: 200 },
  });
  return { agent, log };
}

const fetchAs = (inbound: NodeInbound, who: NodeCredential, timeoutMs?: number) =>
  fetchThroughCore(clientOutbound(inbound, who), page.url, timeoutMs);
const served = (result: string) => result === `200 ${page.body}`;

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 8_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await sleep(50);
  }
  return Date.now() - started;
}

describe('the agent with its panel', () => {
  const alice = credential('alice');
  const bob = credential('bob');
  let panel: FakePanel;
  let stateDir: string;
  let apiPort: number;
  let running: ReturnType<typeof newAgent>;

  beforeAll(async () => {
    panel = new FakePanel(await nodeConfig());
    panel.put(alice);
    stateDir = newStateDir();
    apiPort = await freePort();
    running = newAgent(panel, stateDir, apiPort);
    await running.agent.start();
  });
  afterAll(() => running?.agent.stop());

  const vless = () => present(panel.config.inbounds[0]);

  it('lets the panel’s credentials in from the start', async () => {
    expect(served(await fetchAs(vless(), alice))).toBe(true);
    expect(served(await fetchAs(present(panel.config.inbounds[1]), alice))).toBe(true);
    expect(running.agent.revision).toBe(panel.revision);
  });

  it('adds and revokes credentials within seconds of the change event', async () => {
    panel.put(bob);
    await eventually(async () => served(await fetchAs(vless(), bob)));
    panel.remove(alice.id);
    const took = await eventually(async () => !served(await fetchAs(vless(), alice, 1_000)));
    expect(took).toBeLessThan(5_000);
    expect(served(await fetchAs(vless(), bob))).toBe(true);
    expect(running.agent.revision).toBe(panel.revision);
    panel.put(alice);
    await eventually(async () => served(await fetchAs(vless(), alice)));
  });

  it('catches up on what changed while the change stream was down', async () => {
    const carol = credential('carol');
    panel.dropStreams();
    panel.put(carol);
    await eventually(async () => served(await fetchAs(vless(), carol)));
  });

  it('reports the bytes each credential moved, applied once although a reply was lost', async () => {
    await running.agent.report();
    await running.agent.reportsSent();
    const before = panel.downloaded(alice.id);
    const postedBefore = panel.posted.length;
    expect(served(await fetchAs(vless(), alice))).toBe(true);
    panel.reports = 'lose-reply';
    await running.agent.report();
    expect(await running.agent.reportsSent()).toBe(true);
    const sequences = panel.posted.slice(postedBefore).map((report) => report.sequence);
    expect(sequences).toHaveLength(2);
    expect(sequences[0]).toBe(sequences[1]);
    expect(panel.downloaded(alice.id) - before).toBeGreaterThanOrEqual(PAGE_BYTES);
    const report = panel.applied.get(present(sequences[0]));
    expect(report?.to).toBeGreaterThanOrEqual(report?.from ?? Infinity);
    // A panel without `online_interval` (1.0) takes the live addresses in the reports.
    expect(report?.addresses).toContainEqual({ id: alice.id, ips: ['127.0.0.1'] });
  });

  it('restarts the core when the inbounds change, its users kept', async () => {
    const trojan = testInbound({
      tag: 'trojan',
      protocol: 'trojan',
      port: await freePort(),
      security: 'tls',
      server_name: 'localhost',
    });
    panel.setConfig({ inbounds: [...panel.config.inbounds, trojan] });
    await eventually(async () => served(await fetchAs(trojan, alice)));
    expect(served(await fetchAs(vless(), bob))).toBe(true);
  });

  it('starts the core again when it dies, with every user', async () => {
    const pidFile = path.join(stateDir, 'core.pid');
    const crashed = Number(readFileSync(pidFile, 'utf8'));
    process.kill(crashed, 'SIGKILL');
    await eventually(() => existsSync(pidFile) && Number(readFileSync(pidFile, 'utf8')) !== crashed);
    await eventually(async () => served(await fetchAs(vless(), alice)));
    expect(served(await fetchAs(vless(), bob))).toBe(true);
    expect(running.log.lines().some((line) => line.msg === 'the core exited')).toBe(true);
  });

  it('serves the cached credentials when it starts while the panel is unreachable', async () => {
    await running.agent.stop();
    panel.reachable = false;
    running = newAgent(panel, stateDir, apiPort);
    await running.agent.start();
    expect(served(await fetchAs(vless(), alice))).toBe(true);
    expect(running.log.lines().some((line) => line.msg === 'cannot sync with the panel')).toBe(true);
    panel.reachable = true;
  });
});

describe('the agent’s outbox across a crash', () => {
  it('loses no report read before the crash; the next agent sends them in order, same sequences', async () => {
    const alice = credential('alice');
    const panel = new FakePanel(await nodeConfig());
    panel.put(alice);
    const stateDir = newStateDir();
    const apiPort = await freePort();
    const vless = present(panel.config.inbounds[0]);

    const first = newAgent(panel, stateDir, apiPort);
    await first.agent.start();
    panel.reports = 'down';
    expect(served(await fetchAs(vless, alice))).toBe(true);
    await first.agent.report();
    expect(served(await fetchAs(vless, alice))).toBe(true);
    expect(served(await fetchAs(vless, alice))).toBe(true);
    await first.agent.report();
    // Read (and reset in the core), written to disk, never acknowledged: then the agent dies. A new
    // state folder numbers its reports from the time in milliseconds.
    const written = readdirSync(path.join(stateDir, 'outbox')).filter((name) => name.endsWith('.json'));
    const start = Number(written[0]?.replace('.json', ''));
    expect(start).toBeGreaterThan(Date.now() - 60_000);
    expect(written.map((name) => Number(name.replace('.json', '')))).toEqual([start, start + 1]);
    await first.agent.stop({ flush: false });
    expect(panel.applied.size).toBe(0);

    panel.reports = 'up';
    const second = newAgent(panel, stateDir, apiPort);
    await second.agent.start();
    expect(await second.agent.reportsSent()).toBe(true);
    expect(panel.posted.map((report) => report.sequence)).toEqual([start, start + 1]);
    expect(panel.applied.get(start)?.traffic[0]?.download).toBeGreaterThanOrEqual(PAGE_BYTES);
    expect(panel.applied.get(start + 1)?.traffic[0]?.download).toBeGreaterThanOrEqual(2 * PAGE_BYTES);

    expect(served(await fetchAs(vless, alice))).toBe(true);
    await second.agent.stop();
    expect(panel.posted.map((report) => report.sequence)).toEqual([start, start + 1, start + 2]);
  });
});

describe('the agent without a change stream', () => {
  it('pulls every pull_interval', async () => {
    const panel = new FakePanel(await nodeConfig({ pull_interval: 1 }));
    panel.events = false;
    const stateDir = newStateDir();
    const { agent } = newAgent(panel, stateDir, await freePort());
    await agent.start();
    try {
      const dave = credential('dave');
      panel.put(dave);
      const took = await eventually(() => agent.revision === panel.revision, 5_000);
      expect(took).toBeLessThan(2_500);
      expect(served(await fetchAs(present(panel.config.inbounds[0]), dave))).toBe(true);
      expect(panel.statuses[0]).toMatchObject({
        agent_version: 'test',
        core: expect.stringMatching(/^v2ray 4\./),
      });
    } finally {
      await agent.stop();
    }
  });
});

describe('an access ending on the node', () => {
  it('drops the credential when its access ends, by the node’s clock, before the panel says so', async () => {
    const grace = credential('grace');
    const panel = new FakePanel(await nodeConfig());
    panel.put({ ...grace, expires_at: Math.floor(Date.now() / 1000) + 3 });
    const { agent, log } = newAgent(panel, newStateDir(), await freePort());
    await agent.start();
    const vless = present(panel.config.inbounds[0]);
    try {
      expect(served(await fetchAs(vless, grace))).toBe(true);
      const revision = panel.revision;
      await eventually(async () => !served(await fetchAs(vless, grace, 1_000)), 8_000);
      // Nothing came from the panel: the node's own clock ended it.
      expect(panel.revision).toBe(revision);
      expect(log.lines().some((line) => line.msg === 'access ended: credentials dropped')).toBe(true);
      // Renewed: the panel sends the new end, and it is let in again.
      panel.put({ ...grace, expires_at: Math.floor(Date.now() / 1000) + 3_600 });
      await eventually(async () => served(await fetchAs(vless, grace)));
    } finally {
      await agent.stop();
    }
  });
});

describe('one device per slot on the node', () => {
  it('sends the addresses each credential is live from, and refuses the ones the panel names', async () => {
    const erin = credential('erin');
    const panel = new FakePanel(await nodeConfig({ online_interval: 1 }));
    panel.put(erin);
    const { agent, log } = newAgent(panel, newStateDir(), await freePort());
    await agent.start();
    const vless = present(panel.config.inbounds[0]);
    const from = (address: string, timeoutMs?: number) =>
      fetchThroughCore(clientOutbound(vless, erin, '127.0.0.1', address), page.url, timeoutMs);
    try {
      // Two devices on one credential: every second the panel hears from where.
      expect(served(await from('127.0.0.2'))).toBe(true);
      expect(served(await from('127.0.0.3'))).toBe(true);
      await eventually(() =>
        panel.online.some((online) => online.addresses.some((entry) => entry.ips.includes('127.0.0.3'))),
      );
      const seen = new Set(
        panel.online.flatMap((online) =>
          online.addresses.filter((entry) => entry.id === erin.id).flatMap((entry) => entry.ips),
        ),
      );
      expect([...seen].sort()).toEqual(['127.0.0.2', '127.0.0.3']);

      // The panel refuses the second: this core takes it by starting again, the first carries on.
      panel.put({ ...erin, refused: ['127.0.0.3'] });
      await eventually(async () => !served(await from('127.0.0.3', 1_500)));
      expect(served(await from('127.0.0.2'))).toBe(true);
      expect(log.lines().some((line) => line.msg === 'refused addresses changed: restarting the core')).toBe(
        true,
      );

      // The first device left: the panel lifts the refusal.
      panel.put({ ...erin, refused: [] });
      await eventually(async () => served(await from('127.0.0.3', 1_500)));
    } finally {
      await agent.stop();
    }
    // A panel that takes live addresses on their own gets none in the reports.
    expect(panel.posted.every((report) => (report.addresses ?? []).length === 0)).toBe(true);
  });
});
