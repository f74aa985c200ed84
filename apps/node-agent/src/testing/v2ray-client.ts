import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CoreUser, NodeInbound } from '../core/driver.ts';
import { portOpen, sleep } from '../lib/wait.ts';
import { freePort } from './ports.ts';

/** Debian's v2ray 4.34: the real core the tests run on 127.0.0.1. */
export const V2RAY_BIN = process.env.V2RAY_PATH ?? '/usr/bin/v2ray';

/** A local page of `size` bytes to fetch through the proxy. */
export async function startPage(size: number): Promise<{ url: string; body: string; server: Server }> {
  const body = 'x'.repeat(size);
  const server = createHttpServer((_request, reply) => reply.end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, body, server };
}

// The panel's tests make their TLS inbounds' certificates the same way.
export { selfSignedCertificate } from '../../../server/src/testing/v2ray.ts';

/**
 * A v2ray client outbound that connects to the inbound with the user's credential, from the local
 * address `from` when given (127.0.0.2, 127.0.0.3: two devices on one machine).
 */
export function clientOutbound(
  inbound: NodeInbound,
  user: CoreUser,
  host = '127.0.0.1',
  from?: string,
): object {
  const source = from ? { sendThrough: from } : {};
  const streamSettings = {
    network: inbound.transport,
    security: inbound.security,
    ...(inbound.transport === 'ws' ? { wsSettings: { path: inbound.path ?? '/' } } : {}),
    ...(inbound.security === 'tls'
      ? { tlsSettings: { serverName: inbound.server_name ?? 'localhost', allowInsecure: true } }
      : {}),
  };
  const server = { address: host, port: inbound.port };
  switch (inbound.protocol) {
    case 'vless':
      return {
        protocol: 'vless',
        ...source,
        settings: { vnext: [{ ...server, users: [{ id: user.uuid, encryption: 'none' }] }] },
        streamSettings,
      };
    case 'vmess':
      return {
        protocol: 'vmess',
        ...source,
        settings: { vnext: [{ ...server, users: [{ id: user.uuid, alterId: 0, security: 'auto' }] }] },
        streamSettings,
      };
    case 'trojan':
      return {
        protocol: 'trojan',
        ...source,
        settings: { servers: [{ ...server, password: user.password }] },
        streamSettings,
      };
    case 'shadowsocks':
      throw new Error('v2ray has no Shadowsocks 2022 client');
  }
}

/** GET `url` through an HTTP proxy: "STATUS BODY", or why it failed. */
export function fetchViaProxy(proxyPort: number, url: string, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve) => {
    const sent = request({ host: '127.0.0.1', port: proxyPort, path: url, timeout: timeoutMs }, (reply) => {
      let body = '';
      reply.on('data', (chunk: Buffer) => (body += chunk.toString()));
      reply.on('end', () => resolve(`${reply.statusCode} ${body}`));
      reply.on('error', (error) => resolve(`error ${error.message}`));
    });
    sent.on('timeout', () => (sent.destroy(), resolve('timeout')));
    sent.on('error', (error) => resolve(`error ${error.message}`));
    sent.end();
  });
}

/** Runs a second v2ray as the client (an HTTP proxy inbound on loopback), fetches `url`, stops it. */
export async function fetchThroughCore(outbound: object, url: string, timeoutMs = 5_000): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'node-agent-client-'));
  const port = await freePort();
  const file = path.join(dir, 'config.json');
  writeFileSync(
    file,
    JSON.stringify({
      log: { loglevel: 'warning' },
      inbounds: [{ listen: '127.0.0.1', port, protocol: 'http', settings: {} }],
      outbounds: [outbound],
    }),
  );
  const child: ChildProcess = spawn(V2RAY_BIN, ['-config', file], { stdio: 'ignore' });
  try {
    const deadline = Date.now() + 10_000;
    while (!(await portOpen(port))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('the v2ray client did not start');
      await sleep(30);
    }
    return await fetchViaProxy(port, url, timeoutMs);
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An inbound of the panel's config with the fields a test does not care about left empty. */
export function testInbound(
  fields: Partial<NodeInbound> & Pick<NodeInbound, 'tag' | 'protocol' | 'port'>,
): NodeInbound {
  return {
    id: crypto.randomUUID(),
    transport: 'tcp',
    path: null,
    security: 'none',
    server_name: null,
    flow: null,
    reality_public_key: null,
    reality_short_id: null,
    method: null,
    server_key: null,
    ...fields,
  };
}
