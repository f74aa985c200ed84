import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../log.ts';
import { freePort } from '../testing/ports.ts';
import {
  clientOutbound,
  fetchThroughCore,
  selfSignedCertificate,
  startPage,
  testInbound,
  V2RAY_BIN,
} from '../testing/v2ray-client.ts';
import { createCoreDriver } from './create-driver.ts';
import type { CoreDriver, CoreSettings, CoreUser, NodeInbound } from './driver.ts';
import { present } from '../testing/present.ts';

/*
 * The V2Ray driver on the real core (Debian's v2ray 4.34 on 127.0.0.1): it starts the core with a
 * VLESS, a VMess-over-WebSocket and a Trojan-over-TLS inbound, adds and removes a user through the
 * gRPC API, and a second v2ray as the client fetches a local page through each inbound.
 */
const PAGE_BYTES = 64 * 1024;

describe('the V2Ray driver on the real core', () => {
  const log = memoryLogger();
  const stateDir = mkdtempSync(path.join(tmpdir(), 'node-agent-driver-'));
  const certificate = selfSignedCertificate('localhost');
  const user: CoreUser = {
    email: 'slot-1@node.test',
    uuid: crypto.randomUUID(),
    password: 'trojan-secret-of-slot-1',
  };
  let page: { url: string; body: string; server: Server };
  let inbounds: NodeInbound[];
  let driver: CoreDriver;
  let apiPort: number;
  const settings = (): CoreSettings => ({
    bin: V2RAY_BIN,
    stateDir,
    apiPort,
    listen: '127.0.0.1',
    tls: { certificateFile: certificate.certificateFile, keyFile: certificate.keyFile },
    allowPrivateDestinations: true,
  });

  const fetchVia = (inbound: NodeInbound, as: CoreUser = user) =>
    fetchThroughCore(clientOutbound(inbound, as), page.url);
  // A refused client hangs until its proxy gives up: a short wait is enough to tell.
  const fetchRefused = (inbound: NodeInbound) =>
    fetchThroughCore(clientOutbound(inbound, user), page.url, 1_500);

  beforeAll(async () => {
    page = await startPage(PAGE_BYTES);
    const [vless, vmess, trojan, grpc, shadowsocks, api] = await Promise.all(
      Array.from({ length: 6 }, () => freePort()),
    );
    inbounds = [
      testInbound({ tag: 'vless-tcp', protocol: 'vless', port: present(vless) }),
      testInbound({
        tag: 'vmess-ws',
        protocol: 'vmess',
        port: present(vmess),
        transport: 'ws',
        path: '/ray',
      }),
      testInbound({
        tag: 'trojan-tls',
        protocol: 'trojan',
        port: present(trojan),
        security: 'tls',
        server_name: 'localhost',
      }),
      testInbound({
        tag: 'vless-grpc',
        protocol: 'vless',
        port: present(grpc),
        transport: 'grpc',
        path: 'svc',
      }),
      testInbound({
        tag: 'ss2022',
        protocol: 'shadowsocks',
        port: present(shadowsocks),
        method: '2022-blake3-aes-128-gcm',
        server_key: Buffer.alloc(16, 1).toString('base64'),
      }),
    ];
    apiPort = present(api);
    driver = createCoreDriver('v2ray', settings(), log);
    await driver.start(inbounds, []);
  });

  afterAll(async () => {
    await driver?.stop();
    page?.server.close();
    certificate.remove();
    rmSync(stateDir, { recursive: true, force: true });
  });

  const served = () => inbounds.slice(0, 3);

  it('serves what v2ray can and logs the inbounds it skips', () => {
    expect(driver.running).toBe(true);
    const skipped = log
      .lines()
      .filter((line) => line.msg === 'inbound skipped')
      .map((line) => line.tag);
    expect(skipped).toEqual(['vless-grpc', 'ss2022']);
    const config = JSON.parse(readFileSync(path.join(stateDir, 'core-config.json'), 'utf8'));
    expect(config.inbounds.map((inbound: { tag: string }) => inbound.tag)).toEqual([
      'api',
      'vless-tcp',
      'vmess-ws',
      'trojan-tls',
    ]);
  });

  it('refuses a user the core does not know', async () => {
    for (const inbound of served()) {
      expect(await fetchRefused(inbound), inbound.tag).not.toBe(`200 ${page.body}`);
    }
  });

  it('lets a user added through gRPC in on every inbound, and counts the bytes', async () => {
    await driver.addUser(user);
    for (const inbound of served()) {
      expect(await fetchVia(inbound), inbound.tag).toBe(`200 ${page.body}`);
    }
    const traffic = await driver.readTraffic();
    const counted = traffic.get(user.email);
    expect(counted?.download).toBeGreaterThanOrEqual(3 * PAGE_BYTES);
    expect(counted?.upload).toBeGreaterThan(0);
    // The read reset the counters.
    expect((await driver.readTraffic()).get(user.email)).toBeUndefined();
  });

  it('shuts a removed user out again; removing twice is no error', async () => {
    await driver.removeUser(user.email);
    for (const inbound of served()) {
      expect(await fetchRefused(inbound), inbound.tag).not.toBe(`200 ${page.body}`);
    }
    await expect(driver.removeUser(user.email)).resolves.toBeUndefined();
  });

  it('starts again with the users in its configuration', async () => {
    const other: CoreUser = { email: 'slot-2@node.test', uuid: crypto.randomUUID(), password: 'pw-2' };
    await driver.start(inbounds, [other]);
    // What the earlier tests' connections left in the access log.
    await driver.readAddresses();
    expect(await fetchVia(present(inbounds[0]), other)).toBe(`200 ${page.body}`);
    expect(await fetchVia(present(inbounds[2]), other)).toBe(`200 ${page.body}`);
    expect((await driver.readTraffic()).get(other.email)?.download).toBeGreaterThanOrEqual(2 * PAGE_BYTES);
    // V2Ray has no online lists: the addresses that opened connections since the last read.
    expect(await driver.readAddresses()).toEqual(new Map([[other.email, ['127.0.0.1']]]));
    expect(await driver.readAddresses()).toEqual(new Map());
    expect(await driver.version()).toMatch(/^v2ray 4\.\d+\.\d+$/);
  });

  it('refuses a user from the addresses it starts with, and only from those', async () => {
    const shared: CoreUser = { email: 'slot-3@node.test', uuid: crypto.randomUUID(), password: 'pw-3' };
    expect(driver.liveRefusals).toBe(false);
    await driver.start(inbounds, [shared], new Map([[shared.email, ['127.0.0.2']]]));
    await driver.readAddresses();
    const from = (address: string) =>
      fetchThroughCore(clientOutbound(present(inbounds[0]), shared, '127.0.0.1', address), page.url, 1_500);
    expect(await from('127.0.0.2')).not.toBe(`200 ${page.body}`);
    expect(await from('127.0.0.3')).toBe(`200 ${page.body}`);
    // The refused device still knocks: the panel keeps seeing it.
    expect((await driver.readAddresses()).get(shared.email)?.sort()).toEqual(['127.0.0.2', '127.0.0.3']);
    await expect(driver.setRefusals(new Map())).rejects.toThrow(/only when it starts/);
    await driver.start(inbounds, [shared]);
    expect(await from('127.0.0.2')).toBe(`200 ${page.body}`);
  });

  it('stops a core that an agent which died left running, then starts its own', async () => {
    const pid = Number(readFileSync(path.join(stateDir, 'core.pid'), 'utf8'));
    // A new agent (its own driver) on the same state folder, as after a crash of the old one.
    const next = createCoreDriver('v2ray', { ...settings(), stateDir }, log);
    await next.start(inbounds, [user]);
    try {
      expect(() => process.kill(pid, 0)).toThrow();
      expect(await fetchVia(present(inbounds[0]))).toBe(`200 ${page.body}`);
    } finally {
      await next.stop();
    }
    expect(existsSync(path.join(stateDir, 'core.pid'))).toBe(false);
  });
});
