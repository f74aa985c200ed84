import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { NODE_EVENT_CHANGED } from '@skyway/shared/schemas/node-api';
import type { CoreDriver } from './core/driver.ts';
import type { Logger } from './log.ts';
import { Backoff, type BackoffOptions } from './lib/backoff.ts';
import { SerialQueue } from './lib/serial.ts';
import { Outbox, type ReportBody } from './outbox/outbox.ts';
import { ReportSender } from './outbox/report-sender.ts';
import { EventStream } from './panel/event-stream.ts';
import type { NodeConfig, PanelApi } from './panel/panel-client.ts';
import { machineStatus } from './status.ts';
import { CredentialBook } from './sync/credential-book.ts';
import { readPanelCache, writePanelCache } from './sync/panel-cache.ts';

export interface AgentOptions {
  panel: PanelApi;
  driver: CoreDriver;
  stateDir: string;
  log: Logger;
  agentVersion: string;
  /** Waits between retries of reports, core starts and the first sync (default 1 s … 60 s). */
  retry?: BackoffOptions;
  /** Waits between reconnections of the event stream (default 1 s … 60 s). */
  streamBackoff?: BackoffOptions;
  /** Follow the panel's event stream (default); false pulls on `pull_interval` only. */
  events?: boolean;
}

/** Until the panel has given a config: how often to pull and report. */
const DEFAULT_INTERVALS = { report_interval: 60, pull_interval: 30 };
/** Even with the event stream up, pull this often in case an event was lost. */
const SAFETY_PULL_MS = 10 * 60 * 1_000;
/** The longest wait for the next credential's end before looking again. */
const MAX_EXPIRY_WAIT_MS = 60 * 60 * 1_000;
/** A core that ran this long before it crashed starts again without waiting longer each time. */
const CORE_STABLE_MS = 60_000;

const nowSeconds = () => Math.floor(Date.now() / 1_000);

/**
 * The node agent: keeps the core's users equal to the panel's credentials (pushed by the event
 * stream, pulled when it is down), restarts the core when the inbounds change, and every
 * `report_interval` moves the core's counters into the on-disk outbox, which is sent until acknowledged.
 */
export class Agent {
  private readonly queue = new SerialQueue();
  private readonly book: CredentialBook;
  private readonly log: Logger;
  private readonly coreBackoff: Backoff;
  private readonly syncBackoff: Backoff;
  private outbox: Outbox | undefined;
  private sender: ReportSender | undefined;
  private stream: EventStream | undefined;
  private config: NodeConfig | undefined;
  private configEtag: string | undefined;
  private credentialsEtag: { since: number; etag: string } | undefined;
  private windowStart = nowSeconds();
  private coreStartedAt = 0;
  private coreVersion = 'unknown';
  private timers: NodeJS.Timeout[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private running = false;
  private lastSync = 0;
  private queuedSync: Promise<void> | undefined;
  /** Aborted by `stop`: ends a sync or status call waiting on a slow panel. */
  private readonly halted = new AbortController();

  constructor(private readonly options: AgentOptions) {
    this.log = options.log;
    this.book = new CredentialBook(options.log);
    const retry = options.retry ?? { baseMs: 1_000, maxMs: 60_000 };
    this.coreBackoff = new Backoff(retry);
    this.syncBackoff = new Backoff(retry);
    options.driver.onUnexpectedExit(() => this.coreCrashed());
  }

  /** The revision of the credentials the node holds. */
  get revision(): number {
    return this.book.revision;
  }

  async start(): Promise<void> {
    const { stateDir, panel } = this.options;
    await mkdir(stateDir, { recursive: true, mode: 0o700 });
    this.outbox = await Outbox.open(path.join(stateDir, 'outbox'));
    this.sender = new ReportSender(
      this.outbox,
      (entry, signal) => panel.postReport(entry, signal),
      this.log.child({ part: 'report' }),
      this.options.retry,
    );
    this.running = true;
    this.sender.start();
    const cache = await readPanelCache(stateDir);
    if (cache) {
      this.config = cache.config;
      this.configEtag = cache.config_etag;
      this.book.restore({ revision: cache.revision, credentials: cache.credentials });
      this.log.info('serving the cached config until the panel answers', {
        revision: cache.revision,
        credentials: cache.credentials.length,
      });
      await this.queue.run(() => this.startCore());
      this.scheduleExpiry();
    }
    this.scheduleTimers();
    if (this.options.events !== false) {
      this.stream = new EventStream({
        open: (signal) => panel.openEvents(signal),
        onEvent: (event) => {
          if (event.event === NODE_EVENT_CHANGED) void this.sync();
        },
        onConnected: () => void this.sync(),
        log: this.log.child({ part: 'events' }),
        backoff: this.options.streamBackoff,
      });
    }
    await this.sync();
    void this.sendStatus();
    this.stream?.start();
  }

  /**
   * Stops the agent. With `flush` (the default), the counters are read into the outbox first and
   * the outbox gets a few seconds to reach the panel; what does not is sent after the next start.
   */
  async stop(options: { flush?: boolean } = {}): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const timer of this.timers) clearInterval(timer);
    clearTimeout(this.retryTimer);
    clearTimeout(this.expiryTimer);
    this.halted.abort();
    await this.stream?.stop();
    if (options.flush !== false) {
      await this.queue
        .run(() => this.collectReport())
        .catch((error) => {
          this.log.error('cannot read the last traffic', { error });
        });
      await this.sender?.drained(3_000);
    }
    await this.sender?.stop();
    await this.queue.run(() => this.options.driver.stop());
    this.log.info('agent stopped');
  }

  /**
   * Pulls the config and the credentials now and applies them. Calls while one runs are merged
   * into one more run after it.
   */
  sync(): Promise<void> {
    this.queuedSync ??= this.queue.run(async () => {
      this.queuedSync = undefined;
      if (!this.running) return;
      try {
        await this.syncOnce();
        this.syncBackoff.reset();
      } catch (error) {
        this.log.warn('cannot sync with the panel', { error });
        if (!this.config) this.retrySoon(() => void this.sync(), this.syncBackoff.next());
      }
    });
    return this.queuedSync;
  }

  /** Reads the core's counters into the outbox now (the `report_interval` timer does this too). */
  report(): Promise<void> {
    return this.queue.run(() => this.collectReport());
  }

  /** Resolves once every report in the outbox has been acknowledged (or the time is up). */
  async reportsSent(timeoutMs = 10_000): Promise<boolean> {
    return (await this.sender?.drained(timeoutMs)) ?? false;
  }

  private async syncOnce(): Promise<void> {
    const { panel, driver } = this.options;
    const config = await panel.getConfig(this.configEtag, this.halted.signal);
    if (config.changed) await this.applyConfig(config.value, config.etag);
    else await this.ensureCore();
    const since = this.book.revision;
    const etag = this.credentialsEtag?.since === since ? this.credentialsEtag.etag : undefined;
    const credentials = await panel.getCredentials(since, etag, this.halted.signal);
    if (credentials.changed) {
      this.book.apply(credentials.value);
      this.credentialsEtag = credentials.etag ? { since, etag: credentials.etag } : undefined;
    }
    const result = await this.book.reconcile(driver);
    if (!driver.liveRefusals && driver.running && this.book.refusalsDiffer()) {
      this.log.info('refused addresses changed: restarting the core');
      await this.collectReport();
      await this.startCore();
    }
    this.scheduleExpiry();
    if (config.changed || credentials.changed) await this.saveCache();
    this.lastSync = Date.now();
    if (credentials.changed || result.failed > 0) {
      this.log.info('credentials synced', {
        revision: this.book.revision,
        credentials: this.book.size,
        ...result,
      });
    }
  }

  private async applyConfig(config: NodeConfig, etag: string | undefined): Promise<void> {
    const before = this.config;
    this.config = config;
    this.configEtag = etag;
    const inboundsChanged = JSON.stringify(before?.inbounds) !== JSON.stringify(config.inbounds);
    if (inboundsChanged || !this.options.driver.running) {
      if (before) this.log.info('inbounds changed: restarting the core');
      await this.collectReport();
      await this.startCore();
    }
    if (
      before?.report_interval !== config.report_interval ||
      before?.pull_interval !== config.pull_interval ||
      before?.online_interval !== config.online_interval
    ) {
      this.scheduleTimers();
    }
  }

  private async saveCache(): Promise<void> {
    if (!this.config) return;
    const { revision, credentials } = this.book.snapshot();
    await writePanelCache(this.options.stateDir, {
      config: this.config,
      ...(this.configEtag ? { config_etag: this.configEtag } : {}),
      revision,
      credentials,
    });
  }

  /** (Re)starts the core with the config's inbounds, holding every credential from the start. */
  private async startCore(): Promise<void> {
    const { driver } = this.options;
    if (!this.config || !this.running) return;
    clearTimeout(this.retryTimer);
    const users = this.book.users();
    const refusals = this.book.refusals();
    try {
      await driver.start(this.config.inbounds, users, refusals);
    } catch (error) {
      this.book.coreHolds([]);
      const delay = this.coreBackoff.next();
      this.log.error('cannot start the core', { error, retry_in_ms: delay });
      this.retrySoon(() => void this.queue.run(() => this.ensureCore()), delay);
      return;
    }
    this.book.coreHolds(users, refusals);
    this.coreStartedAt = Date.now();
    this.windowStart = nowSeconds();
    this.coreVersion = await driver.version().catch(() => `${driver.name} unknown`);
  }

  /**
   * Drops each credential from the core when its access ends, by this node's clock, without waiting
   * for the panel to say so (it does, within a minute, through its orders job).
   */
  private scheduleExpiry(): void {
    clearTimeout(this.expiryTimer);
    const next = this.book.nextExpiry();
    if (next === undefined || !this.running) return;
    // Timers hold 24 days at most: a far end is looked at again within the hour.
    const wait = Math.min(Math.max(next - Date.now(), 0) + 50, MAX_EXPIRY_WAIT_MS);
    this.expiryTimer = setTimeout(() => {
      void this.queue
        .run(async () => {
          const result = await this.book.reconcile(this.options.driver);
          if (result.removed > 0) this.log.info('access ended: credentials dropped', { ...result });
        })
        .catch((error: unknown) => this.log.warn('cannot drop the ended credentials', { error }))
        .finally(() => this.scheduleExpiry());
    }, wait);
  }

  private coreCrashed(): void {
    if (!this.running) return;
    // Its counters died with it: the bytes since the last report are lost.
    this.book.coreHolds([]);
    if (Date.now() - this.coreStartedAt > CORE_STABLE_MS) this.coreBackoff.reset();
    const delay = this.coreBackoff.next();
    this.log.error('the core stopped unexpectedly; its traffic since the last report is lost', {
      retry_in_ms: delay,
    });
    this.retrySoon(() => void this.queue.run(() => this.ensureCore()), delay);
  }

  private async ensureCore(): Promise<void> {
    if (!this.options.driver.running) await this.startCore();
  }

  private retrySoon(task: () => void, delay: number): void {
    clearTimeout(this.retryTimer);
    if (this.running) this.retryTimer = setTimeout(task, delay);
  }

  /** Whether the panel takes live addresses on their own (1.1); an older one takes them in reports. */
  private get onlineApart(): boolean {
    return this.config?.online_interval !== undefined;
  }

  /** The addresses each credential is live from, by credential id (64 at most each). */
  private async liveAddresses(): Promise<{ id: string; ips: string[] }[]> {
    const { driver } = this.options;
    if (!driver.running) return [];
    const byEmail = await driver.readAddresses().catch((error: unknown) => {
      this.log.warn('cannot read the online addresses', { error });
      return new Map<string, string[]>();
    });
    const live = [];
    for (const [email, ips] of byEmail) {
      const id = this.book.idForEmail(email);
      if (id && ips.length > 0) live.push({ id, ips: ips.slice(0, 64) });
    }
    return live;
  }

  /**
   * Sends the addresses each credential is live from now (every `online_interval`): the panel lets
   * one device use a slot at a time. A snapshot: one that does not arrive is simply superseded.
   */
  async sendOnline(): Promise<void> {
    const addresses = await this.queue.run(() => this.liveAddresses());
    if (addresses.length === 0) return;
    try {
      await this.options.panel.postOnline({ addresses }, this.halted.signal);
    } catch (error) {
      this.log.warn('cannot send the live addresses', { error });
    }
  }

  /** Moves the core's counters (reset by the read) into the outbox at once, then wakes the sender. */
  private async collectReport(): Promise<void> {
    const { driver } = this.options;
    if (!driver.running || !this.outbox) return;
    const addresses = this.onlineApart ? [] : await this.liveAddresses();
    const traffic = await driver.readTraffic();
    const to = Math.max(nowSeconds(), this.windowStart);
    const report: ReportBody = { from: this.windowStart, to, traffic: [], addresses };
    this.windowStart = to;
    for (const [email, bytes] of traffic) {
      const id = this.book.idForEmail(email);
      if (id) report.traffic.push({ id, ...bytes });
      else this.log.warn('traffic of an unknown user dropped', { email, ...bytes });
    }
    if (report.traffic.length === 0 && addresses.length === 0) return;
    try {
      const entry = await this.outbox.add(report);
      this.log.debug('report written to the outbox', { sequence: entry.sequence });
    } catch (error) {
      // The counters are reset already: the report itself goes to the log, the last place left.
      this.log.error('cannot write the report to the outbox', { error, report });
      throw error;
    }
    this.sender?.wake();
  }

  private async sendStatus(): Promise<void> {
    try {
      await this.options.panel.postStatus(
        machineStatus(this.options.agentVersion, this.coreVersion),
        this.halted.signal,
      );
    } catch (error) {
      this.log.warn('cannot send the status', { error });
    }
  }

  private scheduleTimers(): void {
    for (const timer of this.timers) clearInterval(timer);
    const intervals = this.config ?? DEFAULT_INTERVALS;
    this.timers = [
      setInterval(() => {
        void this.report().catch((error) => this.log.error('cannot read the traffic', { error }));
        void this.sendStatus();
      }, intervals.report_interval * 1_000),
      setInterval(() => {
        const streamUp = this.stream?.connected ?? false;
        if (!streamUp || Date.now() - this.lastSync >= SAFETY_PULL_MS) void this.sync();
      }, intervals.pull_interval * 1_000),
      ...(this.config?.online_interval
        ? [setInterval(() => void this.sendOnline(), this.config.online_interval * 1_000)]
        : []),
    ];
  }
}
