import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Target } from '../faults/harness/http.ts';

/** One request, sent again and again over every connection. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** JSON. */
  body?: unknown;
  /** A form's fields, sent URL-encoded (instead of a JSON body). */
  form?: Record<string, string>;
}

/** The request to send next: the same one each time, or one made for each send (a mix of them). */
export type RequestSource = RequestSpec | (() => RequestSpec);

export interface LoadFigures {
  /** Replies (of any status) counted within the measured time, and the requests left unanswered. */
  requests: number;
  /** Replies a second (those left unanswered not counted). */
  perSecond: number;
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Replies other than 200, and connections lost. */
  failures: number;
  firstFailure?: string;
  /** Requests still unanswered LATE_REPLY_GRACE_MS after the end of the load. */
  unanswered: number;
}

/** The value below which `share` (0 to 1) of the figures lie, the nearest rank. */
export function percentile(values: number[], share: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

/** A load's figures from its latencies, the time it started and what went wrong. */
function figuresOf(
  latencies: number[],
  started: number,
  wrong: Pick<LoadFigures, 'failures' | 'firstFailure' | 'unanswered'>,
): LoadFigures {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (share: number) => percentile(sorted, share);
  return {
    requests: latencies.length,
    perSecond: (latencies.length - wrong.unanswered) / ((performance.now() - started) / 1000),
    p50Ms: at(0.5),
    p90Ms: at(0.9),
    p95Ms: at(0.95),
    p99Ms: at(0.99),
    maxMs: sorted.at(-1) ?? Number.NaN,
    ...wrong,
  };
}

function encode(target: Target, spec: RequestSpec): Buffer {
  const body = spec.form
    ? new URLSearchParams(spec.form).toString()
    : spec.body === undefined
      ? ''
      : JSON.stringify(spec.body);
  const headers = {
    host: `127.0.0.1:${target.port}`,
    connection: 'keep-alive',
    ...(spec.form
      ? { 'content-type': 'application/x-www-form-urlencoded' }
      : spec.body === undefined
        ? {}
        : { 'content-type': 'application/json' }),
    'content-length': String(Buffer.byteLength(body)),
    ...spec.headers,
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.from(`${spec.method} ${spec.path} HTTP/1.1\r\n${head}\r\n${body}`);
}

/**
 * How long replies still due at the end of a load are waited for; those that take longer are
 * counted as unanswered (with the time they had waited), so that a load always ends.
 */
export const LATE_REPLY_GRACE_MS = 30_000;
const HEADER_END = Buffer.from('\r\n\r\n');
const LAST_CHUNK = Buffer.from('\r\n0\r\n\r\n');

/** The bytes of the next request, encoded once when the source is a single request. */
function encoder(target: Target, source: RequestSource): () => Buffer {
  if (typeof source === 'function') return () => encode(target, source());
  const request = encode(target, source);
  return () => request;
}

/** The length of the first complete reply in `data`, or undefined while it is still arriving. */
function replyLength(data: Buffer): number | undefined {
  const headerEnd = data.indexOf(HEADER_END);
  if (headerEnd < 0) return undefined;
  const head = data.toString('latin1', 0, headerEnd).toLowerCase();
  const declared = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (declared) {
    const length = headerEnd + 4 + Number(declared[1]);
    return data.length >= length ? length : undefined;
  }
  if (head.includes('transfer-encoding: chunked')) {
    const last = data.indexOf(LAST_CHUNK, headerEnd);
    return last < 0 ? undefined : last + LAST_CHUNK.length;
  }
  return headerEnd + 4;
}

/**
 * A closed-loop load over keep-alive connections: each connection sends the next request as soon as
 * the reply to the previous one has ended, for `durationMs`. The requests are written as raw bytes
 * and replies are only delimited, not parsed, so that the load generator costs the machine (2 cores)
 * as little as possible and what is measured is the server.
 */
export async function closedLoop(
  target: Target,
  spec: RequestSource,
  options: { connections: number; durationMs: number },
): Promise<LoadFigures> {
  const request = encoder(target, spec);
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  const fail = (what: string) => {
    failures += 1;
    firstFailure ??= what;
  };
  let unanswered = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;
  const cuts = new Set<() => void>();
  const giveUp = setTimeout(() => {
    for (const cut of cuts) cut();
  }, options.durationMs + LATE_REPLY_GRACE_MS);

  const connection = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect(target.port, '127.0.0.1');
      socket.setNoDelay(true);
      let pending: Buffer = Buffer.alloc(0);
      /** When the request now in flight was sent; undefined when none is. */
      let sentAt: number | undefined;
      const next = () => {
        if (performance.now() >= deadline) {
          socket.end();
          return;
        }
        sentAt = performance.now();
        socket.write(request());
      };
      socket.on('connect', next);
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        for (let length = replyLength(pending); length !== undefined; length = replyLength(pending)) {
          latencies.push(performance.now() - (sentAt ?? 0));
          sentAt = undefined;
          const status = pending.toString('latin1', 9, 12);
          if (status !== '200') fail(`${status} ${pending.toString('utf8', 0, length).split('\r\n\r\n')[1]}`);
          pending = pending.subarray(length);
          next();
        }
      });
      const cut = () => {
        if (sentAt !== undefined) {
          latencies.push(performance.now() - sentAt);
          unanswered += 1;
        }
        socket.destroy();
      };
      cuts.add(cut);
      socket.on('error', (error) => fail(`connection: ${error.message}`));
      socket.on('close', () => {
        cuts.delete(cut);
        resolve();
      });
    });

  await Promise.all(Array.from({ length: options.connections }, connection));
  clearTimeout(giveUp);
  return figuresOf(latencies, started, { failures, firstFailure, unanswered });
}

/**
 * An open-loop load: requests are due at a steady `perSecond` whatever the server does, sent over
 * keep-alive connections (one more is opened, up to `connections`, when every open one is waiting
 * for a reply). A request's latency counts from when it was due, not from when a connection was free
 * to send it, so that a slow server is not hidden by the load slowing down with it (coordinated
 * omission). `perSecond` in the figures is the rate of replies within the measured time.
 */
export async function openLoop(
  target: Target,
  spec: RequestSource,
  options: { perSecond: number; durationMs: number; connections: number },
): Promise<LoadFigures> {
  const request = encoder(target, spec);
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  const fail = (what: string) => {
    failures += 1;
    firstFailure ??= what;
  };
  let unanswered = 0;
  const total = Math.round((options.perSecond * options.durationMs) / 1000);
  const started = performance.now();
  /** When each request not yet sent was due. */
  const due: number[] = [];
  let scheduled = 0;
  const idle: net.Socket[] = [];
  const inFlight = new Map<net.Socket, number>();
  let opened = 0;
  let finished: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const settle = () => {
    if (scheduled >= total && due.length === 0 && inFlight.size === 0) finished();
  };

  const dispatch = () => {
    while (due.length > 0) {
      const socket = idle.pop();
      if (!socket) {
        if (opened < options.connections) open();
        return;
      }
      const at = due.shift() ?? performance.now();
      inFlight.set(socket, at);
      socket.write(request());
    }
  };
  const open = () => {
    opened += 1;
    const socket = net.connect(target.port, '127.0.0.1');
    socket.setNoDelay(true);
    let pending: Buffer = Buffer.alloc(0);
    socket.on('connect', () => {
      idle.push(socket);
      dispatch();
    });
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (let length = replyLength(pending); length !== undefined; length = replyLength(pending)) {
        latencies.push(performance.now() - (inFlight.get(socket) ?? 0));
        inFlight.delete(socket);
        const status = pending.toString('latin1', 9, 12);
        if (status !== '200') fail(`${status} ${pending.toString('utf8', 0, length).split('\r\n\r\n')[1]}`);
        pending = pending.subarray(length);
        idle.push(socket);
      }
      dispatch();
      settle();
    });
    socket.on('error', (error) => fail(`connection: ${error.message}`));
    socket.on('close', () => {
      opened -= 1;
      const index = idle.indexOf(socket);
      if (index >= 0) idle.splice(index, 1);
      const sentAt = inFlight.get(socket);
      if (sentAt !== undefined) {
        inFlight.delete(socket);
        latencies.push(performance.now() - sentAt);
        unanswered += 1;
      }
      dispatch();
      settle();
    });
  };

  // Every millisecond, the requests that have come due since.
  const tick = setInterval(() => {
    const now = performance.now();
    const dueBy = Math.min(total, Math.floor(((now - started) * options.perSecond) / 1000));
    for (; scheduled < dueBy; scheduled++) due.push(started + (scheduled * 1000) / options.perSecond);
    dispatch();
    if (scheduled >= total) {
      clearInterval(tick);
      settle();
    }
  }, 1);
  const giveUp = setTimeout(() => {
    clearInterval(tick);
    unanswered += due.length;
    for (const at of due.splice(0)) latencies.push(performance.now() - at);
    for (const socket of inFlight.keys()) socket.destroy();
    finished();
  }, options.durationMs + LATE_REPLY_GRACE_MS);
  await done;
  clearTimeout(giveUp);
  const figures = figuresOf(latencies, started, { failures, firstFailure, unanswered });
  for (const socket of [...idle, ...inFlight.keys()]) socket.destroy();
  return figures;
}
