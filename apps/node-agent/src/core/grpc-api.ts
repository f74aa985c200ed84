import { isIPv4, isIPv6 } from 'node:net';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import type { TypedFields } from './dialect.ts';
import { protosDir } from './protos-dir.ts';

/**
 * The files that declare the services and every message the agent sends: HandlerService and
 * StatsService on both cores, and Xray's RoutingService with its router Config (V2Ray 4.34 has no
 * AddRule).
 */
const PROTO_FILES: Record<string, string[]> = {
  v2ray: [
    'app/proxyman/command/command.proto',
    'app/stats/command/command.proto',
    'proxy/vless/account.proto',
    'proxy/vmess/account.proto',
    'proxy/trojan/config.proto',
  ],
  xray: [
    'app/proxyman/command/command.proto',
    'app/stats/command/command.proto',
    'proxy/vless/account.proto',
    'proxy/vmess/account.proto',
    'proxy/trojan/config.proto',
    'proxy/shadowsocks_2022/config.proto',
    'app/router/command/command.proto',
    'app/router/config.proto',
  ],
};

const CALL_DEADLINE_MS = 5_000;

export interface Stat {
  name: string;
  value: number;
}

interface Protos {
  definition: protoLoader.PackageDefinition;
  root: protobuf.Root;
}

const loaded = new Map<string, Protos>();

/** The core's protobuf definitions, read once per process from the vendored files. */
export function loadProtos(folder: string): Protos {
  const cached = loaded.get(folder);
  if (cached) return cached;
  const dir = path.join(protosDir(), folder);
  const files = PROTO_FILES[folder];
  if (!files) throw new Error(`no protos for ${folder}`);
  const definition = protoLoader.loadSync(files, {
    includeDirs: [dir],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
  });
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(dir, target);
  root.loadSync(files, { keepCase: true });
  const protos = { definition, root };
  loaded.set(folder, protos);
  return protos;
}

function method(
  definition: protoLoader.PackageDefinition,
  service: string,
  name: string,
): protoLoader.MethodDefinition<object, object> {
  const methods = definition[service] as protoLoader.ServiceDefinition | undefined;
  const found = methods?.[name];
  if (!found) throw new Error(`${service} has no ${name}`);
  return found;
}

/**
 * The raw bytes of an IP address written as text: 4 for IPv4, 16 for IPv6, and 4 for an IPv4-mapped
 * IPv6 address (`::ffff:1.2.3.4`), as the core sees that peer. Throws on anything else, a zone
 * (`fe80::1%eth0`) included.
 */
export function ipBytes(address: string): Uint8Array {
  if (isIPv4(address)) return Uint8Array.from(address.split('.'), Number);
  if (!isIPv6(address) || address.includes('%')) throw new Error(`not an IP address: ${address}`);
  let text = address;
  if (text.includes('.')) {
    // An IPv4 tail stands for the last two groups.
    const cut = text.lastIndexOf(':') + 1;
    const [a = 0, b = 0, c = 0, d = 0] = ipBytes(text.slice(cut));
    text = `${text.slice(0, cut)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string | undefined) =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const before = groups(head);
  const after = groups(tail);
  const words =
    tail === undefined
      ? before
      : [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
  if (words.length !== 8) throw new Error(`not an IP address: ${address}`);
  const bytes = Uint8Array.from(words.flatMap((word) => [word >> 8, word & 0xff]));
  const mapped =
    bytes.subarray(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12) : bytes;
}

/** A gRPC status error's code, when the error is one. */
export function grpcCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * The core's gRPC API on 127.0.0.1: HandlerService.AlterInbound for users, StatsService for traffic
 * and online addresses, and on Xray RoutingService for routing rules added while it runs. `pkg` is
 * the protobuf package prefix (`v2ray.core` or `xray`).
 */
export class CoreApi {
  private readonly client: grpc.Client;
  private readonly protos: Protos;

  constructor(
    folder: string,
    private readonly pkg: string,
    address: string,
  ) {
    this.protos = loadProtos(folder);
    this.client = new grpc.Client(address, grpc.credentials.createInsecure());
  }

  close(): void {
    this.client.close();
  }

  private encode(message: TypedFields): { type: string; value: Uint8Array } {
    const type = this.protos.root.lookupType(message.type);
    const problem = type.verify(message.fields);
    if (problem) throw new Error(`${message.type}: ${problem}`);
    return { type: message.type, value: type.encode(type.fromObject(message.fields)).finish() };
  }

  private call<Reply>(service: string, name: string, request: object): Promise<Reply> {
    const definition = method(this.protos.definition, `${this.pkg}.${service}`, name);
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(
        definition.path,
        definition.requestSerialize,
        definition.responseDeserialize,
        request,
        new grpc.Metadata(),
        { deadline: Date.now() + CALL_DEADLINE_MS },
        (error, reply) => (error ? reject(error) : resolve(reply as Reply)),
      );
    });
  }

  private alterInbound(tag: string, operation: TypedFields): Promise<unknown> {
    return this.call('app.proxyman.command.HandlerService', 'AlterInbound', {
      tag,
      operation: this.encode(operation),
    });
  }

  addUser(tag: string, user: { email: string; level: number; account: TypedFields }): Promise<unknown> {
    return this.alterInbound(tag, {
      type: `${this.pkg}.app.proxyman.command.AddUserOperation`,
      fields: { user: { email: user.email, level: user.level, account: this.encode(user.account) } },
    });
  }

  removeUser(tag: string, email: string): Promise<unknown> {
    return this.alterInbound(tag, {
      type: `${this.pkg}.app.proxyman.command.RemoveUserOperation`,
      fields: { email },
    });
  }

  async queryStats(pattern: string, reset: boolean): Promise<Stat[]> {
    const reply = await this.call<{ stat: { name: string; value: string }[] }>(
      'app.stats.command.StatsService',
      'QueryStats',
      { pattern, reset },
    );
    return reply.stat.map((stat) => ({ name: stat.name, value: Number(stat.value) }));
  }

  /** Xray 25.3.6+: the names of the online maps with someone on them (`user>>>EMAIL>>>online`). */
  async onlineUsers(): Promise<string[]> {
    const reply = await this.call<{ users: string[] }>(
      'app.stats.command.StatsService',
      'GetAllOnlineUsers',
      {},
    );
    return reply.users;
  }

  /** Xray 25.3.6+: the addresses on one online map, with when each was last seen. */
  async onlineIps(name: string): Promise<string[]> {
    const reply = await this.call<{ ips: Record<string, string> }>(
      'app.stats.command.StatsService',
      'GetStatsOnlineIpList',
      { name, reset: false },
    );
    return Object.keys(reply.ips);
  }

  /**
   * Xray only (V2Ray 4.34 has no AddRule): appends a routing rule tagged `ruleTag` that sends the
   * user's connections from these addresses (IPv4 or IPv6 text, each a single host) to the outbound
   * `outboundTag`. Appended rules come after the config's own, so they only apply to traffic no
   * earlier rule takes; Xray refuses a `ruleTag` it already holds. Throws, before any call, on an
   * address that is not an IP.
   */
  addRefusalRule(
    ruleTag: string,
    email: string,
    addresses: readonly string[],
    outboundTag: string,
  ): Promise<unknown> {
    const source_ip = addresses.map((address) => {
      const ip = ipBytes(address);
      return { custom: { cidr: { ip, prefix: ip.length * 8 } } };
    });
    return this.call('app.router.command.RoutingService', 'AddRule', {
      config: this.encode({
        type: `${this.pkg}.app.router.Config`,
        fields: { rule: [{ tag: outboundTag, rule_tag: ruleTag, user_email: [email], source_ip }] },
      }),
      shouldAppend: true,
    });
  }

  /** Xray only: removes the routing rules tagged `ruleTag` (a tag no rule has is not an error). */
  removeRule(ruleTag: string): Promise<unknown> {
    return this.call('app.router.command.RoutingService', 'RemoveRule', { ruleTag });
  }
}
