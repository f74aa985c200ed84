import { z } from 'zod';
import {
  NODE_API_HEADER,
  NODE_API_VERSION,
  nodeConfigSchema,
  nodeCredentialsSchema,
  type nodeOnlineRequest,
  nodeReportReply,
  type nodeReportRequest,
  type nodeStatusRequest,
} from '@skyway/shared/schemas/node-api';

export type NodeConfig = z.infer<typeof nodeConfigSchema>;
export type NodeCredentials = z.infer<typeof nodeCredentialsSchema>;
export type NodeReport = z.input<typeof nodeReportRequest>;
export type NodeReportReply = z.infer<typeof nodeReportReply>;
export type NodeStatus = z.infer<typeof nodeStatusRequest>;
export type NodeOnline = z.infer<typeof nodeOnlineRequest>;

/** A reply that may be "nothing changed since the ETag you hold" (304). */
export type Conditional<T> = { changed: false } | { changed: true; value: T; etag: string | undefined };

const REQUEST_TIMEOUT_MS = 15_000;

/** The calls the agent makes, so a test can stand in for the panel. */
export type PanelApi = Pick<
  PanelClient,
  'getConfig' | 'getCredentials' | 'postReport' | 'postOnline' | 'postStatus' | 'openEvents'
>;

/** A call the panel answered with an error (or did not answer with the envelope). */
export class PanelError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason?: string,
    /** Seconds the panel asks us to wait (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'PanelError';
  }

  /**
   * The panel will refuse this very request however often it is sent: too large, or a field it
   * rejects. Not a refused token or contract version, nor a missing route (an older panel): those
   * are fixed on the panel's side or by an upgrade, and then the same request goes through.
   */
  get permanent(): boolean {
    if (this.status === 413 || this.status === 422) return true;
    return this.status === 400 && PERMANENT_REASONS.has(this.reason ?? '');
  }
}

/** The reasons of a 400 that come from the request itself (packages/shared/src/envelope.ts). */
const PERMANENT_REASONS = new Set(['field_invalid', 'field_required', 'body_invalid', 'payload_too_large']);

export interface PanelClientOptions {
  /** The panel's base URL; the node API is under `node/v1/` below it. */
  url: string;
  token: string;
  agentVersion: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface Envelope {
  code: number;
  msg: string;
  data: unknown;
}

/** A fetch that failed before any answer: the cause's code (ECONNREFUSED, …) says the most. */
function unreachable(error: unknown): PanelError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new PanelError(
    0,
    `cannot reach the panel: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
  );
}

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && 'code' in body && 'data' in body;
}

/**
 * The panel's node API (`/node/v1/`, packages/shared/src/schemas/node-api.ts) over fetch: the node's
 * token and contract version on every call, the envelope unwrapped and each reply checked by its
 * zod schema.
 */
export class PanelClient {
  private readonly base: URL;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly options: PanelClientOptions) {
    this.base = new URL('node/v1/', options.url.endsWith('/') ? options.url : `${options.url}/`);
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      authorization: `Bearer ${this.options.token}`,
      [NODE_API_HEADER]: NODE_API_VERSION,
      'user-agent': `skyway-node-agent/${this.options.agentVersion}`,
      accept: 'application/json',
      ...extra,
    };
  }

  /** Every call ends after the request timeout, or when `init.signal` (the agent stopping) aborts. */
  private async request(path: string, init: RequestInit & { signal?: AbortSignal }): Promise<Response> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      return await this.fetch(new URL(path, this.base), { ...init, signal });
    } catch (error) {
      throw unreachable(error);
    }
  }

  /** The envelope's data checked by `schema`, or a PanelError. */
  private async unwrap<S extends z.ZodType>(response: Response, schema: S): Promise<z.infer<S>> {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new PanelError(response.status, `the panel answered ${response.status} without JSON`);
    }
    if (!isEnvelope(body)) throw new PanelError(response.status, 'the panel answered without the envelope');
    if (body.code !== 200 || !response.ok) {
      const data = (body.data ?? {}) as { reason?: string; retry_after?: number };
      throw new PanelError(
        response.status,
        body.msg || `the panel answered ${body.code}`,
        data.reason,
        data.retry_after,
      );
    }
    const parsed = schema.safeParse(body.data);
    if (!parsed.success) {
      throw new PanelError(
        response.status,
        `the panel's reply does not match the contract: ${parsed.error.message}`,
      );
    }
    return parsed.data;
  }

  private async conditionalGet<S extends z.ZodType>(
    path: string,
    schema: S,
    etag: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Conditional<z.infer<S>>> {
    const response = await this.request(path, {
      method: 'GET',
      headers: this.headers(etag ? { 'if-none-match': etag } : {}),
      ...(signal ? { signal } : {}),
    });
    if (response.status === 304) {
      await response.body?.cancel();
      return { changed: false };
    }
    const value = await this.unwrap(response, schema);
    return { changed: true, value, etag: response.headers.get('etag') ?? undefined };
  }

  /** `GET /node/v1/config`; with the ETag of the config held, a 304 says it is still current. */
  getConfig(etag?: string, signal?: AbortSignal): Promise<Conditional<NodeConfig>> {
    return this.conditionalGet('config', nodeConfigSchema, etag, signal);
  }

  /** `GET /node/v1/credentials?since=REVISION`: what changed since then (or the full list). */
  getCredentials(since: number, etag?: string, signal?: AbortSignal): Promise<Conditional<NodeCredentials>> {
    return this.conditionalGet(`credentials?since=${since}`, nodeCredentialsSchema, etag, signal);
  }

  private async post<S extends z.ZodType>(
    path: string,
    body: unknown,
    schema: S,
    signal: AbortSignal | undefined,
  ): Promise<z.infer<S>> {
    const response = await this.request(path, {
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
    return this.unwrap(response, schema);
  }

  /** `POST /node/v1/report`: applied once per sequence, however often it is sent. */
  postReport(report: NodeReport, signal?: AbortSignal): Promise<NodeReportReply> {
    return this.post('report', report, nodeReportReply, signal);
  }

  /** `POST /node/v1/online` (1.1): the addresses each credential is live from now. */
  async postOnline(online: NodeOnline, signal?: AbortSignal): Promise<void> {
    await this.post('online', online, z.unknown(), signal);
  }

  async postStatus(status: NodeStatus, signal?: AbortSignal): Promise<void> {
    await this.post('status', status, z.unknown(), signal);
  }

  /**
   * `GET /node/v1/events`: the open stream of server-sent events, or a PanelError. The caller reads
   * the body and aborts `signal` to close it; the request timeout covers the answer, not the stream.
   */
  async openEvents(signal: AbortSignal): Promise<Response> {
    // The timeout covers the answer's headers only: the stream itself stays open for hours.
    const answered = new AbortController();
    const timer = setTimeout(() => answered.abort(new Error('no answer in time')), this.timeoutMs);
    let response: Response;
    try {
      response = await this.fetch(new URL('events', this.base), {
        method: 'GET',
        headers: this.headers({ accept: 'text/event-stream', 'cache-control': 'no-cache' }),
        signal: AbortSignal.any([signal, answered.signal]),
      });
    } catch (error) {
      throw unreachable(error);
    } finally {
      clearTimeout(timer);
    }
    const type = response.headers.get('content-type') ?? '';
    if (response.ok && type.startsWith('text/event-stream')) return response;
    await this.unwrap(response, z.unknown());
    throw new PanelError(response.status, `the event stream answered ${response.status} ${type}`);
  }
}
