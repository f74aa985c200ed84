import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../log.ts';
import { writeFileAtomic } from '../lib/files.ts';
import { CoreProcess } from './core-process.ts';
import type { CoreDialect } from './dialect.ts';
import { AccessLogAddresses } from './access-log.ts';
import type {
  CoreDriver,
  CoreSettings,
  CoreUser,
  NodeInbound,
  Refusals,
  RenderedCore,
  UserTraffic,
} from './driver.ts';
import { CoreApi, grpcCode } from './grpc-api.ts';
import { accessLogFile, BLOCKED_TAG, refusalRuleTag, renderCoreConfig, USER_LEVEL } from './render-config.ts';
import { onlineAddresses, trafficByEmail } from './stats-names.ts';

const GRPC_UNIMPLEMENTED = 12;

/** The core's "no such user" answer to RemoveUserOperation, worded alike by V2Ray and Xray. */
const isUserNotFound = (error: unknown) => /not found/i.test((error as Error | undefined)?.message ?? '');

/**
 * A core of the V2Ray family (V2Ray, Xray) run as a child process and driven through its gRPC API;
 * the dialect holds what differs between them.
 */
export class ProxyCoreDriver implements CoreDriver {
  private readonly process: CoreProcess;
  private api: CoreApi | undefined;
  private served: NodeInbound[] = [];
  private onlineUnsupported = false;
  private readonly accessLog: AccessLogAddresses | undefined;
  /** The refusals the running core has. */
  private refusals = new Map<string, readonly string[]>();

  constructor(
    private readonly dialect: CoreDialect,
    private readonly settings: CoreSettings,
    private readonly log: Logger,
  ) {
    this.process = new CoreProcess(settings.bin, path.join(settings.stateDir, 'core.pid'), log);
    if (dialect.addresses === 'access-log') this.accessLog = new AccessLogAddresses(accessLogFile(settings));
  }

  get liveRefusals(): boolean {
    return this.dialect.liveRefusals;
  }

  get name() {
    return this.dialect.name;
  }

  get running(): boolean {
    return this.process.running;
  }

  onUnexpectedExit(listener: (detail: { code: number | null; signal: string | null }) => void): void {
    this.process.onUnexpectedExit(listener);
  }

  render(inbounds: readonly NodeInbound[], users: readonly CoreUser[], refusals?: Refusals): RenderedCore {
    return renderCoreConfig(this.dialect, inbounds, users, this.settings, refusals);
  }

  async start(
    inbounds: readonly NodeInbound[],
    users: readonly CoreUser[],
    refusals: Refusals = new Map(),
  ): Promise<RenderedCore> {
    await this.stop();
    const rendered = this.render(inbounds, users, refusals);
    for (const { tag, reason } of rendered.skipped) {
      this.log.warn('inbound skipped', { tag, reason, core: this.name });
    }
    const file = path.join(this.settings.stateDir, 'core-config.json');
    await writeFileAtomic(file, `${JSON.stringify(rendered.config, null, 2)}\n`);
    const ports = [this.settings.apiPort, ...rendered.served.map((inbound) => inbound.port)];
    await this.process.start(this.dialect.runArgs(file), ports);
    this.served = rendered.served;
    this.refusals = new Map(refusals);
    this.api = new CoreApi(
      this.dialect.protos.folder,
      this.dialect.protos.package,
      `127.0.0.1:${this.settings.apiPort}`,
    );
    this.log.info('core started', {
      core: this.name,
      inbounds: rendered.served.map((inbound) => inbound.tag),
      users: users.length,
    });
    return rendered;
  }

  async stop(): Promise<void> {
    this.api?.close();
    this.api = undefined;
    await this.process.stop();
  }

  private requireApi(): CoreApi {
    if (!this.api) throw new Error('the core is not running');
    return this.api;
  }

  async addUser(user: CoreUser): Promise<void> {
    const api = this.requireApi();
    const failures: string[] = [];
    for (const inbound of this.served) {
      try {
        await api.addUser(inbound.tag, {
          email: user.email,
          level: USER_LEVEL,
          account: this.dialect.account(inbound, user),
        });
      } catch (error) {
        failures.push(`${inbound.tag}: ${(error as Error).message}`);
      }
    }
    if (failures.length > 0) throw new Error(`adding ${user.email} failed on ${failures.join('; ')}`);
  }

  async removeUser(email: string): Promise<void> {
    const api = this.requireApi();
    const failures: string[] = [];
    for (const inbound of this.served) {
      try {
        await api.removeUser(inbound.tag, email);
      } catch (error) {
        if (!isUserNotFound(error)) failures.push(`${inbound.tag}: ${(error as Error).message}`);
      }
    }
    if (failures.length > 0) throw new Error(`removing ${email} failed on ${failures.join('; ')}`);
  }

  async readTraffic(): Promise<Map<string, UserTraffic>> {
    return trafficByEmail(await this.requireApi().queryStats('user>>>', true));
  }

  async setRefusals(refusals: Refusals): Promise<void> {
    if (!this.dialect.liveRefusals) throw new Error(`${this.name} takes refusals only when it starts`);
    const api = this.requireApi();
    const failures: string[] = [];
    for (const email of new Set([...this.refusals.keys(), ...refusals.keys()])) {
      const had = this.refusals.get(email) ?? [];
      const wanted = refusals.get(email) ?? [];
      if (had.join() === wanted.join()) continue;
      try {
        // Xray refuses a second rule with one tag: the old one goes first.
        if (had.length > 0) await api.removeRule(refusalRuleTag(email));
        this.refusals.delete(email);
        if (wanted.length > 0) {
          await api.addRefusalRule(refusalRuleTag(email), email, wanted, BLOCKED_TAG);
          this.refusals.set(email, wanted);
        }
      } catch (error) {
        failures.push(`${email}: ${(error as Error).message}`);
      }
    }
    if (failures.length > 0) throw new Error(`refusing failed for ${failures.join('; ')}`);
  }

  async readAddresses(): Promise<Map<string, string[]>> {
    if (this.accessLog) return this.accessLog.read();
    if (this.onlineUnsupported) return new Map();
    const api = this.requireApi();
    try {
      const names = await api.onlineUsers();
      const entries = await Promise.all(
        names.map(async (name) => [name, await api.onlineIps(name)] as const),
      );
      return onlineAddresses(entries);
    } catch (error) {
      if (grpcCode(error) !== GRPC_UNIMPLEMENTED) throw error;
      // Xray before 25.3.6 has no online lists: stop asking.
      this.onlineUnsupported = true;
      return new Map();
    }
  }

  async version(): Promise<string> {
    const { stdout } = await promisify(execFile)(this.settings.bin, this.dialect.versionArgs, {
      timeout: 5_000,
    });
    const match = /(\d+\.\d+\.\d+)/.exec(stdout);
    return `${this.name} ${match?.[1] ?? 'unknown'}`;
  }
}
