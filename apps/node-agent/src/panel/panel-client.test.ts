import type { IncomingHttpHeaders } from 'node:http';
import { NODE_API_VERSION } from '@skyway/shared/schemas/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendEnvelope, startHttpServer } from '../testing/http-server.ts';
import { freePort } from '../testing/ports.ts';
import { PanelClient, PanelError } from './panel-client.ts';

/*
 * The client's transport only (headers, envelope, ETag/304, errors), against a local server that
 * speaks the envelope. The calls' meaning is checked against the real panel once its routes land.
 */
const config = {
  node: { id: crypto.randomUUID(), name: 'Tokyo 1', host: 'tokyo-1.example.com' },
  inbounds: [],
  report_interval: 60,
  pull_interval: 30,
};

describe('the panel client', () => {
  const seen: { url: string; method: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  let client: PanelClient;

  beforeAll(async () => {
    server = await startHttpServer((request, reply) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ url: request.url ?? '', method: request.method ?? '', headers: request.headers, body });
        const url = request.url ?? '';
        if (url === '/panel/node/v1/config') {
          if (request.headers['if-none-match'] === '"config-1"') return reply.writeHead(304).end();
          return sendEnvelope(reply, 200, config, { etag: '"config-1"' });
        }
        if (url.startsWith('/panel/node/v1/credentials')) {
          if (request.headers['if-none-match'] === '"rev-9"') return reply.writeHead(304).end();
          return sendEnvelope(
            reply,
            200,
            { revision: 9, full: false, upsert: [], remove: [] },
            { etag: '"rev-9"' },
          );
        }
        if (url === '/panel/node/v1/report') return sendEnvelope(reply, 200, { applied: true, sequence: 4 });
        if (url === '/panel/node/v1/status')
          return sendEnvelope(reply, 429, { retry_after: 7, reason: 'too_many_requests' });
        if (url === '/panel/node/v1/events') return sendEnvelope(reply, 426, { reason: 'field_invalid' });
        reply.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
      });
    });
    client = new PanelClient({
      url: `${server.url}/panel`,
      token: 'node-token-0123456789',
      agentVersion: '0.1.0',
    });
  });
  afterAll(() => server?.close());

  it('sends the node token and the contract version, and unwraps the envelope', async () => {
    const reply = await client.getConfig();
    expect(reply).toEqual({ changed: true, value: config, etag: '"config-1"' });
    expect(seen.at(-1)?.headers).toMatchObject({
      authorization: 'Bearer node-token-0123456789',
      'x-node-api': NODE_API_VERSION,
      'user-agent': 'skyway-node-agent/0.1.0',
    });
  });

  it('asks with the ETag it holds and takes 304 as "unchanged"', async () => {
    expect(await client.getConfig('"config-1"')).toEqual({ changed: false });
    expect(seen.at(-1)?.headers['if-none-match']).toBe('"config-1"');
    expect(await client.getCredentials(9)).toMatchObject({ changed: true, etag: '"rev-9"' });
    expect(seen.at(-1)?.url).toBe('/panel/node/v1/credentials?since=9');
    expect(await client.getCredentials(9, '"rev-9"')).toEqual({ changed: false });
  });

  it('posts JSON reports', async () => {
    const report = { sequence: 4, from: 1, to: 2, traffic: [], addresses: [] };
    expect(await client.postReport(report)).toEqual({ applied: true, sequence: 4 });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: JSON.stringify(report) });
    expect(seen.at(-1)?.headers['content-type']).toBe('application/json');
  });

  it('turns an error envelope into a PanelError with its reason and retry_after', async () => {
    const status = {
      load: [0, 0, 0] as [number, number, number],
      memory: { total: 1, used: 1 },
      agent_version: '0.1.0',
      core: 'v2ray 4.34.0',
      uptime: 1,
    };
    const error = await client.postStatus(status).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PanelError);
    expect(error).toMatchObject({
      status: 429,
      reason: 'too_many_requests',
      retryAfter: 7,
      permanent: false,
    });
    const refused = await client.openEvents(new AbortController().signal).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ status: 426 });
  });

  it('calls a refusal permanent only when the request itself is at fault', () => {
    expect(new PanelError(400, 'traffic', 'field_invalid').permanent).toBe(true);
    expect(new PanelError(413, 'too large').permanent).toBe(true);
    // An agent speaking another major version, a rotated token, an older panel: fixed elsewhere.
    expect(new PanelError(400, 'x-node-api', 'node_api_version').permanent).toBe(false);
    expect(new PanelError(401, 'token', 'node_token_invalid').permanent).toBe(false);
    expect(new PanelError(404, 'no route', 'not_found').permanent).toBe(false);
    expect(new PanelError(503, 'maintenance').permanent).toBe(false);
  });

  it('reports a reply that is not the envelope, or not the contract, or no reply at all', async () => {
    const gateway = new PanelClient({ url: `${server.url}/elsewhere/`, token: 't', agentVersion: '0' });
    await expect(gateway.getConfig()).rejects.toMatchObject({
      status: 502,
      message: 'the panel answered 502 without JSON',
    });
    const down = new PanelClient({
      url: `http://127.0.0.1:${await freePort()}`,
      token: 't',
      agentVersion: '0',
    });
    await expect(down.getConfig()).rejects.toMatchObject({
      status: 0,
      message: 'cannot reach the panel: ECONNREFUSED',
    });
    const drifted = new PanelClient({
      url: 'http://panel.invalid',
      token: 't',
      agentVersion: '0',
      fetch: async () =>
        Response.json({ code: 200, msg: 'ok', data: { ...config, report_interval: 'soon' } }),
    });
    await expect(drifted.getConfig()).rejects.toThrow(/does not match the contract/);
  });

  it('gives up on a panel that does not answer when the agent stops, or after the timeout', async () => {
    const silent = await startHttpServer(() => undefined);
    try {
      const slow = new PanelClient({ url: silent.url, token: 't', agentVersion: '0', timeoutMs: 300 });
      const stopping = new AbortController();
      const started = Date.now();
      setTimeout(() => stopping.abort(), 50);
      await expect(slow.getConfig(undefined, stopping.signal)).rejects.toMatchObject({ status: 0 });
      expect(Date.now() - started).toBeLessThan(250);
      await expect(slow.getCredentials(0)).rejects.toMatchObject({ status: 0 });
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      await silent.close();
    }
  });
});
