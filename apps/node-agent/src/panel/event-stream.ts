import type { Logger } from '../log.ts';
import { Backoff, type BackoffOptions } from '../lib/backoff.ts';
import { sleep } from '../lib/wait.ts';
import { PanelError } from './panel-client.ts';
import { type ServerSentEvent, SseParser } from './sse-parser.ts';

export interface EventStreamOptions {
  /** Opens the stream (PanelClient.openEvents). */
  open: (signal: AbortSignal) => Promise<Response>;
  onEvent: (event: ServerSentEvent) => void;
  onConnected: () => void;
  onDisconnected?: () => void;
  log: Logger;
  backoff?: BackoffOptions;
  /** No byte (not even the panel's 15 s comment) for this long: the connection is dead. */
  idleTimeoutMs?: number;
  /** A connection that lasted this long was a good one: the next failure starts the backoff over. */
  stableAfterMs?: number;
}

/**
 * Follows the panel's server-sent events: reconnects whenever the stream ends or fails, waiting
 * longer after each failure in a row (exponential backoff with jitter, at least what the panel's
 * `retry_after` asks), and says when it is connected so the agent can pull instead while it is not.
 */
export class EventStream {
  private readonly stopped = new AbortController();
  private current: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private readonly backoff: Backoff;
  private isConnected = false;

  constructor(private readonly options: EventStreamOptions) {
    this.backoff = new Backoff(options.backoff ?? { baseMs: 1_000, maxMs: 60_000 });
  }

  get connected(): boolean {
    return this.isConnected;
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    this.current?.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { log } = this.options;
    while (!this.stopped.signal.aborted) {
      const connection = new AbortController();
      this.current = connection;
      let openedAt: number | undefined;
      let failure: unknown;
      try {
        const response = await this.options.open(connection.signal);
        openedAt = Date.now();
        this.isConnected = true;
        log.info('event stream connected');
        this.options.onConnected();
        await this.read(response, connection);
      } catch (error) {
        failure = error;
      }
      if (this.isConnected) {
        this.isConnected = false;
        this.options.onDisconnected?.();
      }
      if (this.stopped.signal.aborted) break;
      if (openedAt !== undefined && Date.now() - openedAt >= (this.options.stableAfterMs ?? 30_000)) {
        this.backoff.reset();
      }
      const retryAfterMs = failure instanceof PanelError ? (failure.retryAfter ?? 0) * 1_000 : 0;
      const delay = Math.max(this.backoff.next(), retryAfterMs);
      log.warn('event stream down', {
        error: failure ?? 'closed by the panel',
        retry_in_ms: delay,
        failures: this.backoff.failures,
      });
      await sleep(delay, this.stopped.signal);
    }
  }

  private async read(response: Response, connection: AbortController): Promise<void> {
    if (!response.body) return;
    const parser = new SseParser();
    const decoder = new TextDecoder();
    const idleMs = this.options.idleTimeoutMs ?? 45_000;
    let idle = setTimeout(() => connection.abort(new Error('the event stream went quiet')), idleMs);
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        clearTimeout(idle);
        idle = setTimeout(() => connection.abort(new Error('the event stream went quiet')), idleMs);
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          this.options.onEvent(event);
        }
      }
    } finally {
      clearTimeout(idle);
      reader.releaseLock();
    }
  }
}
