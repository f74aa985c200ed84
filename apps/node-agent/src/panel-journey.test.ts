import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deviceSlots, mailOutbox, trafficHourly } from '../../server/src/db/schema/index.ts';
import { deactivateLapsedSlots } from '../../server/src/modules/access/slots.ts';
import { runAlertsAt } from '../../server/src/testing/alerts.ts';
import { type SignedInStaff, signedInStaff } from '../../server/src/testing/staff.ts';
import {
  newClientAddress,
  signedInUser,
  startTestApp,
  type TestApp,
  webCaller,
} from '../../server/src/testing/test-app.ts';
import { testMailer } from '../../server/src/testing/test-mailer.ts';
import { Agent } from './agent.ts';
import { createCoreDriver } from './core/create-driver.ts';
import type { NodeInbound } from './core/driver.ts';
import { sleep } from './lib/wait.ts';
import { memoryLogger } from './log.ts';
import { PanelClient } from './panel/panel-client.ts';
import { freePort } from './testing/ports.ts';
import { clientOutbound, fetchThroughCore, startPage, V2RAY_BIN } from './testing/v2ray-client.ts';

/*
 * The whole delivery on loopback: the real panel (the server's app on a test database, listening),
 * one agent following it, and Debian's v2ray as the node's core. A customer buys in the sandbox and
 * fetches a page through the node with the credential their subscription link gives; the access
 * ends, the slot is regenerated, traffic is reported, the agent dies mid-report: each reaches the
 * node, and the ledger, as it should.
 */
const PAGE_BYTES = 256 * 1024;
/** The promise: a change reaches a connected node within 10 s. */
const WITHIN_MS = 10_000;
const MINUTE = 60_000;

let page: { url: string; body: string; server: Server };
let t: TestApp;
let panelUrl: string;
let admin: SignedInStaff;
let nodeToken: string;
const stateDirs: string[] = [];
const web = webCaller(
  () => t.app,
  () => newClientAddress(),
);

beforeAll(async () => {
  page = await startPage(PAGE_BYTES);
  // Agents send their live addresses every second (one device per slot).
  t = await startTestApp({ NODE_ONLINE_INTERVAL_SECONDS: '1' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  panelUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await signedInStaff(t.app, t.database, 'admin');
  const node = (
    await admin.call('POST', '/nodes', { name: 'Loopback', region: 'HK', host: '127.0.0.1' })
  ).json().data as { id: string };
  await admin.call('POST', `/nodes/${node.id}/inbounds`, {
    protocol: 'vless',
    port: await freePort(),
    transport: 'tcp',
    security: 'none',
  });
  nodeToken = (await admin.call('POST', `/nodes/${node.id}/token`)).json().data.token as string;
}, 60_000);

afterAll(async () => {
  page?.server.close();
  // The agents are stopped; their fetches' pooled keep-alive sockets would hold the close up until
  // their timeout.
  t?.app.server.closeAllConnections();
  await t?.close();
  for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * The agent's way to the panel, which a test can break for reports: `lost-reply` lets a report reach
 * the panel and loses its answer, `down` lets none through.
 */
const transport = { reports: 'up' as 'up' | 'lost-reply' | 'down' };
const flakyFetch: typeof fetch = async (input, init) => {
  const isReport = String(input instanceof Request ? input.url : input).endsWith('/report');
  if (isReport && transport.reports === 'down') throw new TypeError('fetch failed (panel unreachable)');
  const reply = await fetch(input, init);
  if (isReport && transport.reports === 'lost-reply') throw new TypeError('fetch failed (reply lost)');
  return reply;
};

function startAgent(stateDir: string, apiPort: number) {
  const log = memoryLogger();
  const driver = createCoreDriver(
    'v2ray',
    { bin: V2RAY_BIN, stateDir, apiPort, listen: '127.0.0.1', allowPrivateDestinations: true },
    log,
  );
  const panel = new PanelClient({ url: panelUrl, token: nodeToken, agentVersion: 'test', fetch: flakyFetch });
  const agent = new Agent({
    panel,
    driver,
    stateDir,
    log,
    agentVersion: 'test',
    retry: { baseMs: 50, maxMs: 500 },
    streamBackoff: { baseMs: 50, maxMs: 500 },
  });
  return agent;
}

function newStateDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'node-agent-journey-'));
  stateDirs.push(dir);
  return dir;
}

/** A new customer who buys a month of one connection at the sandbox checkout; their slot's link. */
async function buyer() {
  const { user, token } = await signedInUser(t.database);
  const order = (
    await web('/web/order/create', { period: 'month', connections: 1, pay_method: 'alipay' }, token)
  ).json().data as { checkout_url: string };
  const paid = await t.app.inject({
    method: 'POST',
    url: `${new URL(order.checkout_url, panelUrl).pathname}/pay`,
  });
  expect(paid.statusCode).toBe(303);
  return { user, token, ...(await link(token)) };
}

/** The customer's first slot and what its link gives a Clash Meta app: the node's VLESS server. */
async function link(token: string) {
  const devices = (await web('/web/device/list', {}, token)).json().data.devices as {
    id: string;
    url: string;
  }[];
  const slot = devices[0];
  if (!slot) throw new Error('no slot');
  const yaml = await t.app.inject({
    method: 'GET',
    url: new URL(slot.url).pathname,
    headers: { 'user-agent': 'mihomo/1.19.0' },
  });
  const proxies = (
    parse(yaml.body) as { proxies: { type: string; server: string; port: number; uuid: string }[] }
  ).proxies;
  const vless = proxies.find((proxy) => proxy.type === 'vless');
  if (!vless) throw new Error(`no VLESS server in ${yaml.body}`);
  return { slotId: slot.id, server: vless };
}

/**
 * A page fetched through the node as the customer's app would, with the link's credential; from the
 * local address `from` when given (two devices on one machine).
 */
async function fetchWith(
  server: { port: number; uuid: string },
  from?: string,
  timeoutMs = 4_000,
): Promise<boolean> {
  const inbound = {
    protocol: 'vless',
    port: server.port,
    transport: 'tcp',
    security: 'none',
    path: null,
  } as NodeInbound;
  const result = await fetchThroughCore(
    clientOutbound(inbound, { uuid: server.uuid, password: '' } as never, '127.0.0.1', from),
    page.url,
    timeoutMs,
  );
  return result === `200 ${page.body}`;
}

/** The bytes the ledger holds as downloaded through the slot. */
async function downloadedInLedger(slotId: string): Promise<number> {
  const rows = await t.database.db.select().from(trafficHourly).where(eq(trafficHourly.slotId, slotId));
  return rows.reduce((sum, row) => sum + row.download, 0);
}

async function within(check: () => Promise<boolean>, ms = WITHIN_MS): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await sleep(200);
  }
  return Date.now() - started;
}

describe('a node following the panel', () => {
  let agent: Agent;
  let stateDir: string;
  let apiPort: number;

  beforeAll(async () => {
    stateDir = newStateDir();
    apiPort = await freePort();
    agent = startAgent(stateDir, apiPort);
    await agent.start();
    // Up once it holds the panel's list (on a busy machine the core and the first pull take a while):
    // what the tests time is how fast a change reaches a node that is up.
    await within(async () => agent.revision > 0, 45_000);
  }, 60_000);
  afterAll(() => agent?.stop());

  it('lets a customer in within seconds of paying, and out within seconds of the access ending', async () => {
    const customer = await buyer();
    const joined = await within(() => fetchWith(customer.server));
    expect(joined).toBeLessThan(WITHIN_MS);

    // Staff take the month back: the access has ended.
    await admin.call('POST', `/users/${customer.user.id}/time`, {
      days: -40,
      hours: 0,
      reason: 'test: refunded',
    });
    await deactivateLapsedSlots(t.database.db, new Date());
    const left = await within(async () => !(await fetchWith(customer.server)));
    expect(left).toBeLessThan(WITHIN_MS);
  }, 60_000);

  it('refuses a regenerated slot’s old credential and lets the new one in', async () => {
    const customer = await buyer();
    await within(() => fetchWith(customer.server));
    await web('/web/device/regenerate', { id: customer.slotId }, customer.token);
    const renewed = await link(customer.token);
    expect(renewed.server.uuid).not.toBe(customer.server.uuid);
    await within(async () => !(await fetchWith(customer.server)));
    await within(() => fetchWith(renewed.server));
  }, 60_000);

  it('counts the bytes of downloads once, through a lost answer and an agent killed mid-report', async () => {
    const customer = await buyer();
    await within(() => fetchWith(customer.server));
    // Whatever the first fetches moved is reported and out of the way.
    await agent.report();
    expect(await agent.reportsSent()).toBe(true);
    const ledger = () => downloadedInLedger(customer.slotId);
    const before = await ledger();

    // Two pages; their report reaches the panel, but its answer is lost: the agent keeps it.
    expect(await fetchWith(customer.server)).toBe(true);
    expect(await fetchWith(customer.server)).toBe(true);
    transport.reports = 'lost-reply';
    await agent.report();
    expect(await agent.reportsSent(1_000)).toBe(false);
    // One more page; the panel is unreachable now, and the agent dies before it is back.
    transport.reports = 'down';
    expect(await fetchWith(customer.server)).toBe(true);
    await agent.report();
    await agent.stop({ flush: false });

    // A new agent on the same state folder sends both: the first again (applied once), then the second.
    transport.reports = 'up';
    agent = startAgent(stateDir, apiPort);
    await agent.start();
    expect(await agent.reportsSent()).toBe(true);

    const moved = (await ledger()) - before;
    // Three pages and the core's framing: at least the bytes, never counted twice.
    expect(moved).toBeGreaterThanOrEqual(3 * PAGE_BYTES);
    expect(moved).toBeLessThan(3 * PAGE_BYTES * 1.1);
    const devices = (await web('/web/device/list', {}, customer.token)).json().data.devices as {
      download: number;
    }[];
    expect(devices[0]?.download).toBe(await ledger());
    const [slot] = await t.database.db.select().from(deviceSlots).where(eq(deviceSlots.id, customer.slotId));
    expect(slot?.active).toBe(true);
  }, 90_000);

  it('lets one device use a slot at a time: a second is refused, and let in once the first has gone', async () => {
    // The operator's grace for a second address: 2 s.
    expect((await admin.call('PATCH', '/settings', { device_grace_seconds: 2 })).statusCode).toBe(200);
    const customer = await buyer();
    await within(() => fetchWith(customer.server, '127.0.0.2'));

    // The first device keeps using the node, as a phone streaming would.
    let firstInUse = true;
    const firstDevice = (async () => {
      while (firstInUse) {
        await fetchWith(customer.server, '127.0.0.2', 1_500);
        await sleep(200);
      }
    })();
    try {
      // A second device with the same link, from another address: refused within 30 s.
      const started = Date.now();
      await within(async () => !(await fetchWith(customer.server, '127.0.0.3', 1_500)), 30_000);
      const refusedAfter = Date.now() - started;
      expect(refusedAfter).toBeLessThan(30_000);
      // Refused for good while the first is there (not a restart's blip), and the first still works.
      expect(await fetchWith(customer.server, '127.0.0.3', 1_500)).toBe(false);
      expect(await fetchWith(customer.server, '127.0.0.2')).toBe(true);

      // My devices says the link is in use on another device (a loopback address has no country).
      const devices = (await web('/web/device/list', {}, customer.token)).json().data.devices as {
        in_use_elsewhere: { country: string | null; refused_at: number } | null;
      }[];
      expect(devices[0]?.in_use_elsewhere).toMatchObject({ country: null });
    } finally {
      firstInUse = false;
      await firstDevice;
    }

    // The first device has stopped: once it has been gone the liveness window, the second works.
    const stopped = Date.now();
    await within(() => fetchWith(customer.server, '127.0.0.3', 1_500), 30_000);
    expect(Date.now() - stopped).toBeLessThan(30_000);
    const devices = (await web('/web/device/list', {}, customer.token)).json().data.devices as {
      in_use_elsewhere: unknown;
    }[];
    expect(devices[0]?.in_use_elsewhere).toBeNull();
  }, 120_000);

  it('tells staff once when the agent stops reporting, and once when it reports again', async () => {
    const db = t.database.db;
    const mailer = testMailer(db);
    const alertsOn = async (at: number) => {
      await runAlertsAt(db, at, mailer);
      await mailer.idle();
      const mails = await db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.template, 'staff_alert'), eq(mailOutbox.to, admin.email)));
      return mails.map((mail) => mail.subject).filter((subject) => subject.includes('Loopback'));
    };
    // Reporting: heard from, nothing to say.
    await agent.report();
    expect(await alertsOn(Date.now())).toEqual([]);

    // The agent stops. Once it has been silent the five minutes set, one alert, however often the
    // job runs while it stays silent.
    await agent.stop();
    const stopped = Date.now();
    expect(await alertsOn(stopped + 4 * MINUTE)).toEqual([]);
    await alertsOn(stopped + 6 * MINUTE);
    expect(await alertsOn(stopped + 7 * MINUTE)).toEqual(['Skyway alert: Node Loopback is not reporting']);

    // A new agent on the node: once it has called the panel, the incident ends, with one alert.
    agent = startAgent(stateDir, apiPort);
    await agent.start();
    await within(async () => agent.revision > 0, 45_000);
    await agent.report();
    expect(await alertsOn(Date.now())).toEqual([
      'Skyway alert: Node Loopback is not reporting',
      'Skyway alert: Node Loopback is reporting again',
    ]);
  }, 90_000);
});

/** The agent as shipped: the bundle `npm run build` makes, run by plain `node` as the unit does. */
interface ShippedAgent {
  pid: number;
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** The `msg` of every log line so far. */
  messages: () => string[];
}

describe('a node agent stopped as shipped', () => {
  let bundle: string;
  const agents: ShippedAgent[] = [];

  beforeAll(() => {
    bundle = newStateDir();
    execFileSync(process.execPath, [path.join(import.meta.dirname, '../scripts/build.mjs'), bundle]);
  }, 60_000);
  afterAll(async () => {
    for (const agent of agents) await stopForGood(agent);
  });

  function runShippedAgent(stateDir: string, apiPort: number): ShippedAgent {
    const child = spawn(process.execPath, [path.join(bundle, 'node-agent.js')], {
      // It leads its own process group, as under a shell or systemd.
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        PATH: process.env.PATH,
        PANEL_URL: panelUrl,
        NODE_TOKEN: nodeToken,
        CORE: 'v2ray',
        CORE_BIN: V2RAY_BIN,
        STATE_DIR: stateDir,
        API_PORT: String(apiPort),
        LISTEN: '127.0.0.1',
        ALLOW_PRIVATE_DESTINATIONS: 'true',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const agent: ShippedAgent = {
      pid: child.pid ?? 0,
      exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
      messages: () =>
        output
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => (JSON.parse(line) as { msg: string }).msg),
    };
    agents.push(agent);
    return agent;
  }

  /** After a failed test: the agent's group and the core it may have left. */
  async function stopForGood(agent: ShippedAgent): Promise<void> {
    try {
      process.kill(-agent.pid, 'SIGKILL');
    } catch {
      // Exited already.
    }
    await agent.exited;
  }

  const corePid = (stateDir: string) => Number(readFileSync(path.join(stateDir, 'core.pid'), 'utf8'));
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const outboxEmpty = (stateDir: string) =>
    readdirSync(path.join(stateDir, 'outbox')).every((name) => !name.endsWith('.json'));

  it('loses no traffic when its whole process group gets SIGTERM or SIGINT (systemctl, Ctrl-C)', async () => {
    const customer = await buyer();
    const stateDir = newStateDir();
    const apiPort = await freePort();
    let pages = 0;
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const agent = runShippedAgent(stateDir, apiPort);
      await within(() => fetchWith(customer.server), 45_000);
      expect(await fetchWith(customer.server)).toBe(true);
      pages += 2;
      const core = corePid(stateDir);

      // What `systemctl stop` did with KillMode=control-group, and what a shell's Ctrl-C does.
      process.kill(-agent.pid, signal);
      expect(await agent.exited).toEqual({ code: 0, signal: null });
      expect(agent.messages()).not.toContain('cannot read the last traffic');
      expect(agent.messages()).toContain('agent stopped');
      // The agent stopped its core itself: none is left holding the ports.
      expect(alive(core)).toBe(false);
    }

    // What did not reach the panel while stopping is sent after the next start.
    const last = runShippedAgent(stateDir, apiPort);
    await within(async () => last.messages().includes('core started') && outboxEmpty(stateDir), 30_000);
    process.kill(-last.pid, 'SIGTERM');
    expect(await last.exited).toEqual({ code: 0, signal: null });

    // Every page in the ledger, once: the bytes and the core's framing, never counted twice.
    const moved = await downloadedInLedger(customer.slotId);
    expect(moved).toBeGreaterThanOrEqual(pages * PAGE_BYTES);
    expect(moved).toBeLessThan(pages * PAGE_BYTES * 1.1);
  }, 150_000);
});
