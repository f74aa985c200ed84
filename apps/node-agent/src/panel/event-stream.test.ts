import type { ServerResponse } from 'node:http';
import { NODE_API_VERSION } from '@skyway/shared/schemas/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../log.ts';
import { sleep } from '../lib/wait.ts';
import { sendEnvelope, startHttpServer } from '../testing/http-server.ts';
import { EventStream } from './event-stream.ts';
import { PanelClient } from './panel-client.ts';
import type { ServerSentEvent } from './sse-parser.ts';
import { present } from '../testing/present.ts';

/*
 * The change stream's transport against a local server: events arrive, a dropped or silent stream
 * is reopened after waits that double (jitter pinned to its maximum here), a stream that stayed up
 * starts the waits over, and the panel's retry_after is honoured.
 */
type Server = Awaited<ReturnType<typeof startHttpServer>>;
const servers: Server[] = [];
const streams: EventStream[] = [];
afterEach(async () => {
  await Promise.all(streams.splice(0).map((stream) => stream.stop()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

// The panel sends the headers at once: the agent counts the stream as up from its 200.
const openStream = (reply: ServerResponse) => {
  reply.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  reply.flushHeaders();
};

function follow(server: Server, options: Partial<ConstructorParameters<typeof EventStream>[0]> = {}) {
  const client = new PanelClient({ url: server.url, token: 'node-token-0123456789', agentVersion: 'test' });
  const events: ServerSentEvent[] = [];
  const changes: string[] = [];
  const stream = new EventStream({
    open: (signal) => client.openEvents(signal),
    onEvent: (event) => events.push(event),
    onConnected: () => changes.push('up'),
    onDisconnected: () => changes.push('down'),
    log: memoryLogger(),
    backoff: { baseMs: 100, maxMs: 400, random: () => 1 },
    ...options,
  });
  streams.push(stream);
  stream.start();
  return { stream, events, changes };
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

describe('the event stream', () => {
  it('delivers the panel’s events and says when it is connected', async () => {
    let open: ServerResponse | undefined;
    const server = await startHttpServer((request, reply) => {
      expect(request.headers).toMatchObject({ accept: 'text/event-stream', 'x-node-api': NODE_API_VERSION });
      openStream(reply);
      reply.write(': hello\n\n');
      open = reply;
    });
    servers.push(server);
    const { stream, events, changes } = follow(server);
    await until(() => stream.connected);
    open?.write('event: changed\ndata: {"revision":12}\n\n');
    await until(() => events.length === 1);
    expect(events).toEqual([{ event: 'changed', data: '{"revision":12}' }]);
    expect(changes).toEqual(['up']);
  });

  it('reconnects after waits that double up to the ceiling', async () => {
    const attempts: number[] = [];
    const server = await startHttpServer((_request, reply) => {
      attempts.push(Date.now());
      openStream(reply);
      reply.end();
    });
    servers.push(server);
    const { changes } = follow(server);
    await until(() => attempts.length >= 5, 10_000);
    const gaps = attempts.slice(1).map((at, index) => at - present(attempts[index]));
    // 100, 200, 400, 400 ms (+ the time to connect).
    expect(gaps[0]).toBeGreaterThanOrEqual(95);
    expect(gaps[0]).toBeLessThan(300);
    expect(gaps[1]).toBeGreaterThanOrEqual(195);
    expect(gaps[2]).toBeGreaterThanOrEqual(395);
    expect(gaps[3]).toBeGreaterThanOrEqual(395);
    expect(gaps[3]).toBeLessThan(800);
    expect(changes.slice(0, 4)).toEqual(['up', 'down', 'up', 'down']);
  });

  it('starts the waits over after a stream that stayed up', async () => {
    const attempts: number[] = [];
    const server = await startHttpServer((_request, reply) => {
      attempts.push(Date.now());
      openStream(reply);
      // The first three close at once; the fourth stays up 300 ms, longer than "stable".
      if (attempts.length === 4) setTimeout(() => reply.end(), 300);
      else reply.end();
    });
    servers.push(server);
    follow(server, { stableAfterMs: 250 });
    await until(() => attempts.length >= 5, 10_000);
    const gapAfterStable = present(attempts[4]) - present(attempts[3]) - 300;
    // 100 ms (the first wait again), not the 400 ms that a fourth failure in a row would wait.
    expect(gapAfterStable).toBeLessThan(300);
  });

  it('reopens a stream that went quiet', async () => {
    let attempts = 0;
    const server = await startHttpServer((_request, reply) => {
      attempts += 1;
      openStream(reply);
      reply.write(': open\n\n');
    });
    servers.push(server);
    follow(server, { idleTimeoutMs: 200 });
    await until(() => attempts >= 2, 5_000);
  });

  it('waits at least as long as the panel’s retry_after', async () => {
    const attempts: number[] = [];
    const server = await startHttpServer((_request, reply) => {
      attempts.push(Date.now());
      sendEnvelope(reply, 503, { reason: 'service_unavailable', retry_after: 1 });
    });
    servers.push(server);
    const { changes } = follow(server);
    await until(() => attempts.length >= 2, 5_000);
    expect(present(attempts[1]) - present(attempts[0])).toBeGreaterThanOrEqual(995);
    expect(changes).toEqual([]);
  });
});
