import type { NodeCredential } from '../core/driver.ts';
import {
  type Conditional,
  type NodeConfig,
  type NodeCredentials,
  type NodeOnline,
  type NodeReport,
  type NodeReportReply,
  type NodeStatus,
  type PanelApi,
  PanelError,
} from '../panel/panel-client.ts';

/**
 * An in-memory stand-in for the panel's node API, for the agent's own tests until the panel's
 * routes land (then the agent runs against the real server): credentials with revisions, config
 * with an ETag, reports applied once per sequence, and a change stream it can push to or drop.
 */
export class FakePanel implements PanelApi {
  private configVersion = 1;
  private readonly credentials = new Map<string, NodeCredential>();
  private readonly history: { revision: number; id: string }[] = [];
  private readonly streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  revision = 0;
  /** Every report posted, resends included. */
  readonly posted: NodeReport[] = [];
  /** Reports by sequence, each applied once. */
  readonly applied = new Map<number, NodeReport>();
  readonly statuses: NodeStatus[] = [];
  /** Every list of live addresses posted. */
  readonly online: NodeOnline[] = [];
  /** `down`: reports fail before the panel sees them; `lose-reply`: applied, but the reply is lost. */
  reports: 'up' | 'down' | 'lose-reply' = 'up';
  reachable = true;
  events = true;

  constructor(public config: NodeConfig) {}

  private emit(): void {
    const chunk = new TextEncoder().encode(
      `event: changed\ndata: ${JSON.stringify({ revision: this.revision })}\n\n`,
    );
    for (const stream of this.streams) stream.enqueue(chunk);
  }

  private check(): void {
    if (!this.reachable) throw new PanelError(0, 'cannot reach the panel: ECONNREFUSED');
  }

  setConfig(config: Partial<NodeConfig>): void {
    this.config = { ...this.config, ...config };
    this.configVersion += 1;
    this.emit();
  }

  put(credential: NodeCredential): void {
    this.credentials.set(credential.id, credential);
    this.history.push({ revision: ++this.revision, id: credential.id });
    this.emit();
  }

  remove(id: string): void {
    this.credentials.delete(id);
    this.history.push({ revision: ++this.revision, id });
    this.emit();
  }

  /** Ends every open change stream, as a panel restart would. */
  dropStreams(): void {
    for (const stream of this.streams) stream.close();
    this.streams.clear();
  }

  /** The bytes applied for a credential, over every report. */
  downloaded(id: string): number {
    let bytes = 0;
    for (const report of this.applied.values()) {
      for (const entry of report.traffic) if (entry.id === id) bytes += entry.download;
    }
    return bytes;
  }

  async getConfig(etag?: string): Promise<Conditional<NodeConfig>> {
    this.check();
    const current = `"config-${this.configVersion}"`;
    return etag === current ? { changed: false } : { changed: true, value: this.config, etag: current };
  }

  async getCredentials(since: number): Promise<Conditional<NodeCredentials>> {
    this.check();
    if (since === 0) {
      const upsert = [...this.credentials.values()];
      return {
        changed: true,
        value: { revision: this.revision, full: true, upsert, remove: [] },
        etag: undefined,
      };
    }
    const touched = new Set(this.history.filter((entry) => entry.revision > since).map((entry) => entry.id));
    const upsert = [...touched].flatMap((id) => this.credentials.get(id) ?? []);
    const remove = [...touched].filter((id) => !this.credentials.has(id));
    return {
      changed: true,
      value: { revision: this.revision, full: false, upsert, remove },
      etag: undefined,
    };
  }

  async postReport(report: NodeReport): Promise<NodeReportReply> {
    this.check();
    if (this.reports === 'down') throw new PanelError(503, 'maintenance');
    this.posted.push(report);
    const first = !this.applied.has(report.sequence);
    if (first) this.applied.set(report.sequence, report);
    if (this.reports === 'lose-reply') {
      this.reports = 'up';
      throw new PanelError(0, 'cannot reach the panel: ECONNRESET');
    }
    return { applied: first, sequence: report.sequence };
  }

  async postOnline(online: NodeOnline): Promise<void> {
    this.check();
    this.online.push(online);
  }

  async postStatus(status: NodeStatus): Promise<void> {
    this.check();
    this.statuses.push(status);
  }

  async openEvents(signal: AbortSignal): Promise<Response> {
    this.check();
    if (!this.events) throw new PanelError(404, 'no such route', 'not_found');
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (started) => {
        controller = started;
        this.streams.add(started);
      },
      cancel: () => {
        if (controller) this.streams.delete(controller);
      },
    });
    signal.addEventListener('abort', () => {
      if (controller && this.streams.delete(controller)) controller.error(signal.reason);
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  }
}
