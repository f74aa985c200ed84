import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCredential } from '../access/slots.ts';
import { freePort, type RunningCore, selfSignedCertificate, startV2ray } from '../../testing/v2ray.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';
import type { Endpoint } from '../nodes/endpoints.ts';
import { type Credential, shareLink } from './formats.ts';

/*
 * Our share links on a real proxy core (Debian's v2ray 4.34, on 127.0.0.1): a server inbound per
 * protocol holding a slot's credential as our code makes it, a client made from nothing but the share
 * link, and a page fetched through them. A regenerated slot's old link is refused. (v2ray 4.34 has
 * no REALITY, Vision or Shadowsocks 2022: those are checked against their formats' files.)
 */
const PAGE = 'hello from the far side';
const base = {
  path: null,
  serverName: null,
  flow: null,
  realityPublicKey: null,
  realityShortId: null,
  method: null,
  serverKey: null,
};

/** A v2ray client outbound read back from a share link alone. */
function outboundFromLink(link: string): object {
  if (link.startsWith('vmess://')) {
    const v = JSON.parse(Buffer.from(link.slice(8), 'base64').toString('utf8'));
    return {
      protocol: 'vmess',
      settings: {
        vnext: [
          {
            address: v.add,
            port: Number(v.port),
            users: [{ id: v.id, alterId: Number(v.aid), security: v.scy }],
          },
        ],
      },
      streamSettings: {
        network: v.net,
        security: v.tls === 'tls' ? 'tls' : 'none',
        ...(v.net === 'ws' ? { wsSettings: { path: v.path } } : {}),
        ...(v.tls === 'tls' ? { tlsSettings: { serverName: v.sni, allowInsecure: true } } : {}),
      },
    };
  }
  const url = new URL(link);
  const query = Object.fromEntries(url.searchParams);
  const stream = {
    network: query.type ?? 'tcp',
    security: query.security === 'tls' ? 'tls' : 'none',
    ...(query.type === 'ws' ? { wsSettings: { path: query.path } } : {}),
    ...(query.security === 'tls' ? { tlsSettings: { serverName: query.sni, allowInsecure: true } } : {}),
  };
  const server = { address: url.hostname, port: Number(url.port) };
  if (url.protocol === 'vless:') {
    return {
      protocol: 'vless',
      settings: {
        vnext: [
          { ...server, users: [{ id: decodeURIComponent(url.username), encryption: query.encryption }] },
        ],
      },
      streamSettings: stream,
    };
  }
  if (url.protocol === 'trojan:') {
    return {
      protocol: 'trojan',
      settings: { servers: [{ ...server, password: decodeURIComponent(url.username) }] },
      streamSettings: stream,
    };
  }
  throw new Error(`no v2ray client for ${link}`);
}

// No database: once is enough, on the embedded project's run.
describe.runIf(testDatabaseKind === 'pglite')('our share links on a real proxy core', () => {
  let page: Server;
  let pagePort: number;
  let server: RunningCore;
  const certificate = selfSignedCertificate('localhost');
  const credential: Credential = (() => {
    const { credential: uuid, secret } = newCredential();
    return { uuid, secret };
  })();
  const endpoints: Endpoint[] = [];

  beforeAll(async () => {
    page = createServer((_request, reply) => reply.end(PAGE));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pagePort = (page.address() as { port: number }).port;
    const [vless, vmess, vmessWs, trojan] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    endpoints.push(
      {
        ...base,
        name: 'VLESS',
        host: '127.0.0.1',
        protocol: 'vless',
        port: vless,
        transport: 'tcp',
        security: 'none',
      },
      {
        ...base,
        name: 'VMess',
        host: '127.0.0.1',
        protocol: 'vmess',
        port: vmess,
        transport: 'tcp',
        security: 'none',
      },
      {
        ...base,
        name: 'VMess WS',
        host: '127.0.0.1',
        protocol: 'vmess',
        port: vmessWs,
        transport: 'ws',
        path: '/ray',
        security: 'none',
      },
      {
        ...base,
        name: 'Trojan',
        host: '127.0.0.1',
        protocol: 'trojan',
        port: trojan,
        transport: 'tcp',
        security: 'tls',
        serverName: 'localhost',
      },
    );
    const tls = {
      security: 'tls',
      tlsSettings: {
        certificates: [{ certificateFile: certificate.certificateFile, keyFile: certificate.keyFile }],
      },
    };
    server = await startV2ray(
      {
        log: { loglevel: 'warning' },
        inbounds: [
          {
            listen: '127.0.0.1',
            port: vless,
            protocol: 'vless',
            settings: { clients: [{ id: credential.uuid }], decryption: 'none' },
          },
          {
            listen: '127.0.0.1',
            port: vmess,
            protocol: 'vmess',
            settings: { clients: [{ id: credential.uuid, alterId: 0 }] },
          },
          {
            listen: '127.0.0.1',
            port: vmessWs,
            protocol: 'vmess',
            settings: { clients: [{ id: credential.uuid, alterId: 0 }] },
            streamSettings: { network: 'ws', wsSettings: { path: '/ray' } },
          },
          {
            listen: '127.0.0.1',
            port: trojan,
            protocol: 'trojan',
            settings: { clients: [{ password: credential.secret }] },
            streamSettings: { network: 'tcp', ...tls },
          },
        ],
        outbounds: [{ protocol: 'freedom' }],
      },
      trojan,
    );
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    page?.close();
    certificate.remove();
  });

  /** Fetches the page through a v2ray client made from the link; the body, or the failure. */
  async function fetchThrough(link: string): Promise<string> {
    const proxyPort = await freePort();
    const client = await startV2ray(
      {
        log: { loglevel: 'warning' },
        inbounds: [{ listen: '127.0.0.1', port: proxyPort, protocol: 'http', settings: {} }],
        outbounds: [outboundFromLink(link)],
      },
      proxyPort,
    );
    try {
      return await new Promise<string>((resolve) => {
        const sent = request(
          { host: '127.0.0.1', port: proxyPort, path: `http://127.0.0.1:${pagePort}/`, timeout: 5000 },
          (reply) => {
            let body = '';
            reply.on('data', (chunk: Buffer) => (body += chunk.toString()));
            reply.on('end', () => resolve(`${reply.statusCode} ${body}`));
          },
        );
        sent.on('timeout', () => (sent.destroy(), resolve('timeout')));
        sent.on('error', (error) => resolve(`error ${error.message}`));
        sent.end();
      });
    } finally {
      await client.stop();
    }
  }

  it('carries a page through each protocol, from nothing but our share link', async () => {
    for (const endpoint of endpoints) {
      expect(await fetchThrough(shareLink(endpoint, credential)), endpoint.name).toBe(`200 ${PAGE}`);
    }
  }, 60_000);

  it('refuses a regenerated slot’s old credential', async () => {
    // The server holds the slot's credential as it is now; its link from before the regeneration:
    const before = newCredential();
    const old = { uuid: before.credential, secret: before.secret };
    for (const endpoint of endpoints) {
      expect(await fetchThrough(shareLink(endpoint, old)), endpoint.name).not.toBe(`200 ${PAGE}`);
    }
  }, 60_000);
});
