import type { Logger } from '../log.ts';
import { Backoff, type BackoffOptions } from '../lib/backoff.ts';
import { sleep } from '../lib/wait.ts';
import { PanelError, type NodeReportReply } from '../panel/panel-client.ts';
import type { Outbox, OutboxEntry } from './outbox.ts';

/**
 * Sends the outbox to the panel in sequence order, one report at a time, each until the panel
 * answers for it: a timeout or a lost reply sends the same sequence again (the panel applies a
 * sequence once). A report the panel can never take (400, 413, …) is set aside, not retried forever,
 * so it does not hold back every later one; one the panel answered is done with, even when it took
 * none or only some of its bytes (1.2: `implausible`, `refused`), which it would refuse again.
 */
export class ReportSender {
  private readonly stopped = new AbortController();
  private wakeUp: (() => void) | undefined;
  private pokes = 0;
  private loop: Promise<void> | undefined;
  private readonly backoff: Backoff;
  private idleWaiters: (() => void)[] = [];
  private idle = false;

  constructor(
    private readonly outbox: Outbox,
    private readonly post: (entry: OutboxEntry, signal: AbortSignal) => Promise<NodeReportReply>,
    private readonly log: Logger,
    backoff: BackoffOptions = { baseMs: 1_000, maxMs: 60_000 },
  ) {
    this.backoff = new Backoff(backoff);
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** There is something new in the outbox. */
  wake(): void {
    this.pokes += 1;
    this.idle = false;
    this.wakeUp?.();
  }

  /** Resolves once the outbox is empty (or `timeoutMs` has passed); true when it is empty. */
  async drained(timeoutMs: number): Promise<boolean> {
    if (this.idle) return true;
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      new Promise<boolean>((resolve) => this.idleWaiters.push(() => resolve(true))),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    return done;
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    this.wakeUp?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped.signal.aborted) {
      const pokes = this.pokes;
      const entries = await this.outbox.pending();
      let sentAll = true;
      for (const entry of entries) {
        if (this.stopped.signal.aborted) return;
        if (!(await this.send(entry))) {
          sentAll = false;
          break;
        }
      }
      if (sentAll && pokes === this.pokes) {
        this.idle = true;
        for (const resolve of this.idleWaiters.splice(0)) resolve();
        await new Promise<void>((resolve) => (this.wakeUp = resolve));
        this.wakeUp = undefined;
      }
    }
  }

  /** One report, until the panel answers; false when it is time to wait and retry. */
  private async send(entry: OutboxEntry): Promise<boolean> {
    try {
      const reply = await this.post(entry, this.stopped.signal);
      if (reply.sequence !== entry.sequence) {
        throw new PanelError(200, `the panel acknowledged sequence ${reply.sequence} for ${entry.sequence}`);
      }
      await this.outbox.acknowledge(entry.sequence);
      this.backoff.reset();
      const sent = { sequence: entry.sequence, applied: reply.applied, credentials: entry.traffic.length };
      // Taken, but not all of it: sending it again would change nothing, so it is done with too.
      if (reply.implausible) this.log.error('report refused: more than the line could carry', sent);
      else if (reply.refused)
        this.log.warn('report taken without the bytes of some credentials', {
          ...sent,
          refused: reply.refused,
        });
      else this.log.info('report sent', sent);
      return true;
    } catch (error) {
      if (error instanceof PanelError && error.permanent) {
        this.log.error('report refused by the panel, set aside', { sequence: entry.sequence, error });
        await this.outbox.reject(entry.sequence);
        return true;
      }
      if (this.stopped.signal.aborted) return false;
      const retryAfterMs = error instanceof PanelError ? (error.retryAfter ?? 0) * 1_000 : 0;
      const delay = Math.max(this.backoff.next(), retryAfterMs);
      this.log.warn('report not sent, will resend', { sequence: entry.sequence, error, retry_in_ms: delay });
      await sleep(delay, this.stopped.signal);
      return false;
    }
  }
}
