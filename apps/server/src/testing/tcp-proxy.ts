import net from 'node:net';
import { listenOnLoopback } from './loopback.ts';

/**
 * - `pass`: connections reach the real server;
 * - `refuse`: nothing listens (connection refused), live connections are destroyed;
 * - `blackhole`: connections are accepted, and live ones kept open, but nothing flows either way,
 *   as when a network path dies silently.
 */
export type ProxyMode = 'pass' | 'refuse' | 'blackhole';

/**
 * A TCP proxy in the test process between the server and a real one (PostgreSQL, Redis, SMTP), so a
 * scenario can take that server away and give it back without touching the server itself.
 */
export interface TcpProxy {
  port: number;
  mode(): ProxyMode;
  /** Lets connections through again; connections held by a black hole are destroyed, so clients reconnect. */
  pass(): Promise<void>;
  refuse(): Promise<void>;
  blackhole(): Promise<void>;
  /** Connections accepted so far (each a client's connect attempt that got through to the proxy). */
  accepted(): number;
  close(): Promise<void>;
}

interface Link {
  client: net.Socket;
  upstream?: net.Socket;
  /** False once a black hole swallowed it: data is dropped from then on. */
  flowing: boolean;
}

export async function startTcpProxy(
  target: { host: string; port: number },
  initial: ProxyMode,
): Promise<TcpProxy> {
  const links = new Set<Link>();
  let mode: ProxyMode = initial;
  let accepted = 0;

  const destroy = (link: Link) => {
    link.client.destroy();
    link.upstream?.destroy();
    links.delete(link);
  };

  const server = net.createServer((client) => {
    accepted += 1;
    const link: Link = { client, flowing: mode === 'pass' };
    links.add(link);
    client.on('error', () => destroy(link));
    client.on('close', () => destroy(link));
    if (!link.flowing) {
      // A black hole: keep the connection, answer nothing.
      client.on('data', () => undefined);
      return;
    }
    const upstream = net.connect(target.port, target.host);
    link.upstream = upstream;
    upstream.on('error', () => destroy(link));
    upstream.on('close', () => destroy(link));
    client.on('data', (chunk) => link.flowing && upstream.write(chunk));
    upstream.on('data', (chunk) => link.flowing && client.write(chunk));
  });

  const listen = (port: number) => listenOnLoopback(server, port);
  const stopListening = () =>
    new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));

  await listen(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  if (initial === 'refuse') await stopListening();

  return {
    port,
    mode: () => mode,
    pass: async () => {
      for (const link of links) if (!link.flowing) destroy(link);
      mode = 'pass';
      if (!server.listening) await listen(port);
    },
    refuse: async () => {
      mode = 'refuse';
      await Promise.all([stopListening(), ...[...links].map(async (link) => destroy(link))]);
    },
    blackhole: async () => {
      mode = 'blackhole';
      for (const link of links) link.flowing = false;
      if (!server.listening) await listen(port);
    },
    accepted: () => accepted,
    close: async () => {
      for (const link of links) destroy(link);
      await stopListening();
    },
  };
}

/** The Redis behind `redisUrl`, through a proxy: `url` is REDIS_URL for the instances (same database number). */
export async function startRedisProxy(
  redisUrl: string,
  initial: ProxyMode,
): Promise<TcpProxy & { url: string }> {
  const target = new URL(redisUrl);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) }, initial);
  return Object.assign(proxy, { url: `redis://127.0.0.1:${proxy.port}${target.pathname}` });
}
