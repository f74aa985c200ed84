import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import type { TypedFields } from './dialect.ts';
import { protosDir } from './protos-dir.ts';

/** The files that declare the two services and every account message the agent sends. */
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

/** A gRPC status error's code, when the error is one. */
export function grpcCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * The core's gRPC API on 127.0.0.1: HandlerService.AlterInbound for users, StatsService for traffic
 * and online addresses. `pkg` is the protobuf package prefix (`v2ray.core` or `xray`).
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
}
