import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import net from 'node:net';

/** Where a request goes: one server instance. */
export interface Target {
  name: string;
  port: number;
}

export interface RequestSpec {
  method?: string;
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** The request is abandoned (and recorded as `timeout`) after this long. */
  timeoutMs?: number;
  /** A keep-alive agent, as a load balancer keeps connections; default: one connection per request. */
  agent?: http.Agent;
}

/** One request and what came of it. Times are performance.now() milliseconds. */
export interface Exchange {
  target: string;
  method: string;
  path: string;
  startedAt: number;
  /** When the whole request had been handed to the socket: from then on it counts as sent. */
  sentAt?: number;
  endedAt: number;
  status?: number;
  headers?: IncomingHttpHeaders;
  body?: Buffer;
  /** Set when no complete reply came: the socket error code, or `timeout`. */
  error?: string;
}

export const elapsedOf = (exchange: Exchange) => exchange.endedAt - exchange.startedAt;

function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string')
    return error.code;
  return error instanceof Error ? error.message : String(error);
}

/** Sends one request; never throws: a failure is an Exchange with `error` set. */
export function send(target: Target, spec: RequestSpec): Promise<Exchange> {
  const method = spec.method ?? 'GET';
  const exchange: Exchange = {
    target: target.name,
    method,
    path: spec.path,
    startedAt: performance.now(),
    endedAt: 0,
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      exchange.endedAt = performance.now();
      if (error !== undefined) exchange.error = errorCode(error);
      resolve(exchange);
    };
    const request = http.request({
      host: '127.0.0.1',
      port: target.port,
      method,
      path: spec.path,
      headers: spec.headers,
      agent: spec.agent ?? false,
    });
    const timer = setTimeout(() => {
      finish('timeout');
      request.destroy();
    }, spec.timeoutMs ?? 10_000);
    request.on('finish', () => (exchange.sentAt = performance.now()));
    request.on('error', (error) => finish(error));
    request.on('response', (response) => {
      exchange.status = response.statusCode;
      exchange.headers = response.headers;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        exchange.body = Buffer.concat(chunks);
        finish();
      });
      response.on('error', (error) => finish(error));
    });
    request.end(spec.body);
  });
}

export interface CallOptions {
  /** The virtual client's address, sent as X-Forwarded-For (the instances trust the proxy header). */
  ip: string;
  token?: string;
  timeoutMs?: number;
  agent?: http.Agent;
  headers?: OutgoingHttpHeaders;
}

/** POSTs a `/web/` call as the browser client does: JSON, the session token if any. */
export function postJson(
  target: Target,
  path: string,
  payload: unknown,
  options: CallOptions,
): Promise<Exchange> {
  return send(target, {
    method: 'POST',
    path,
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': options.ip,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: JSON.stringify(payload),
    timeoutMs: options.timeoutMs,
    agent: options.agent,
  });
}

/** The reply's body as JSON, or undefined when it is none. */
export function jsonOf(exchange: Exchange): unknown {
  if (!exchange.body || exchange.body.length === 0) return undefined;
  try {
    return JSON.parse(exchange.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** `data` of an envelope reply, for reading a token or an order id. */
export function dataOf(exchange: Exchange): Record<string, unknown> {
  const json = jsonOf(exchange) as { data?: unknown } | undefined;
  const data = json?.data;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

/** One line naming a request and its outcome, for failure messages. */
export function describeExchange(exchange: Exchange): string {
  const outcome = exchange.error
    ? `no reply (${exchange.error})`
    : `${exchange.status} ${(exchange.body ?? Buffer.alloc(0)).toString('utf8').slice(0, 200)}`;
  return `${exchange.method} ${exchange.path} on ${exchange.target} → ${outcome} (${Math.round(elapsedOf(exchange))} ms)`;
}

/** A raw HTTP/1.1 exchange on its own socket: what the server wrote, and when the socket closed. */
export interface RawConnection {
  socket: net.Socket;
  openedAt: number;
  /** Resolves when the server (or destroy()) closed the socket, with everything it wrote. */
  closed: Promise<{ afterMs: number; received: string }>;
  write(text: string | Buffer): void;
}

export function openRaw(target: Target): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(target.port, '127.0.0.1');
    let received = '';
    const openedAt = performance.now();
    const closed = new Promise<{ afterMs: number; received: string }>((done) => {
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('close', () => done({ afterMs: performance.now() - openedAt, received }));
    });
    // A reset is one way for the server to cut the connection: `closed` reports it.
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({ socket, openedAt, closed, write: (text) => void socket.write(text) }),
    );
    socket.once('error', reject);
  });
}

/** The status and body of a raw reply without chunked encoding (what the server sends for JSON). */
export function parseRawReply(text: string): { status?: number; headers: string; body: string } {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  const split = text.indexOf('\r\n\r\n');
  return {
    status: match ? Number(match[1]) : undefined,
    headers: split < 0 ? text : text.slice(0, split),
    body: split < 0 ? '' : Buffer.from(text.slice(split + 4), 'latin1').toString('utf8'),
  };
}
