import * as grpc from '@grpc/grpc-js';
import type { ServiceDefinition } from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssUserKey } from '@skyway/shared/shadowsocks';
import { testInbound } from '../testing/v2ray-client.ts';
import { CoreApi, loadProtos } from './grpc-api.ts';
import { onlineAddresses, trafficByEmail } from './stats-names.ts';
import { xrayDialect } from './xray-dialect.ts';
import { present } from '../testing/present.ts';

/*
 * No Xray binary installs here, so its API calls are checked against a gRPC server built from the
 * very .proto files vendored from Xray-core: what arrives is decoded as Xray would decode it.
 */
interface TypedMessage {
  type: string;
  value: Buffer;
}

const protos = loadProtos('xray');
const decode = (message: TypedMessage) =>
  protos.root.lookupType(message.type).toObject(protos.root.lookupType(message.type).decode(message.value));

describe('the Xray API calls', () => {
  const received: { tag: string; operation: TypedMessage }[] = [];
  const server = new grpc.Server();
  let api: CoreApi;

  beforeAll(async () => {
    const service = (name: string) => protos.definition[name] as ServiceDefinition;
    server.addService(service('xray.app.proxyman.command.HandlerService'), {
      AlterInbound: (
        call: grpc.ServerUnaryCall<{ tag: string; operation: TypedMessage }, object>,
        done: grpc.sendUnaryData<object>,
      ) => {
        received.push(call.request);
        done(null, {});
      },
    });
    server.addService(service('xray.app.stats.command.StatsService'), {
      QueryStats: (
        call: grpc.ServerUnaryCall<{ pattern: string; reset: boolean }, object>,
        done: grpc.sendUnaryData<object>,
      ) => {
        expect(call.request).toEqual({ pattern: 'user>>>', reset: true });
        done(null, {
          stat: [
            { name: 'user>>>a@node>>>traffic>>>uplink', value: 120 },
            { name: 'user>>>a@node>>>traffic>>>downlink', value: 9_000_000_000 },
            { name: 'user>>>b>>>x@node>>>traffic>>>downlink', value: 5 },
            { name: 'user>>>idle@node>>>traffic>>>downlink', value: 0 },
          ],
        });
      },
      GetAllOnlineUsers: (_call: unknown, done: grpc.sendUnaryData<object>) =>
        done(null, { users: ['user>>>a@node>>>online'] }),
      GetStatsOnlineIpList: (
        call: grpc.ServerUnaryCall<{ name: string }, object>,
        done: grpc.sendUnaryData<object>,
      ) =>
        done(null, {
          name: call.request.name,
          ips: { '203.0.113.7': 1_700_000_000, '2001:db8::1': 1_700_000_001 },
        }),
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    api = new CoreApi('xray', 'xray', `127.0.0.1:${port}`);
  });

  afterAll(() => {
    api?.close();
    server.forceShutdown();
  });

  const user = {
    email: 'a@node',
    uuid: '8d5e5d1e-6f0c-4a63-9a0b-5f1d2c3b4a59',
    password: Buffer.alloc(32, 3).toString('base64'),
  };

  it('adds a VLESS user with its flow as AddUserOperation', async () => {
    const inbound = testInbound({
      tag: 'vless-vision',
      protocol: 'vless',
      port: 443,
      flow: 'xtls-rprx-vision',
    });
    await api.addUser('vless-vision', {
      email: user.email,
      level: 0,
      account: xrayDialect.account(inbound, user),
    });
    const { tag, operation } = present(received.at(-1));
    expect(tag).toBe('vless-vision');
    expect(operation.type).toBe('xray.app.proxyman.command.AddUserOperation');
    const { user: added } = decode(operation) as {
      user: { email: string; level?: number; account: TypedMessage };
    };
    expect(added.email).toBe('a@node');
    expect(added.account.type).toBe('xray.proxy.vless.Account');
    expect(decode(added.account)).toEqual({ id: user.uuid, flow: 'xtls-rprx-vision' });
  });

  it('adds a Shadowsocks 2022 user with the key cut to the method', async () => {
    const inbound = testInbound({
      tag: 'ss',
      protocol: 'shadowsocks',
      port: 8388,
      method: '2022-blake3-aes-128-gcm',
      server_key: Buffer.alloc(16).toString('base64'),
    });
    await api.addUser('ss', { email: user.email, level: 0, account: xrayDialect.account(inbound, user) });
    const { user: added } = decode(present(received.at(-1)).operation) as { user: { account: TypedMessage } };
    expect(added.account.type).toBe('xray.proxy.shadowsocks_2022.Account');
    expect(decode(added.account)).toEqual({ key: ssUserKey(user.password, '2022-blake3-aes-128-gcm') });
  });

  it('adds Trojan and VMess users and removes a user by email', async () => {
    await api.addUser('trojan', {
      email: user.email,
      level: 0,
      account: xrayDialect.account(testInbound({ tag: 'trojan', protocol: 'trojan', port: 1 }), user),
    });
    expect(
      decode(
        (decode(present(received.at(-1)).operation) as { user: { account: TypedMessage } }).user.account,
      ),
    ).toEqual({
      password: user.password,
    });
    await api.addUser('vmess', {
      email: user.email,
      level: 0,
      account: xrayDialect.account(testInbound({ tag: 'vmess', protocol: 'vmess', port: 2 }), user),
    });
    expect(
      decode(
        (decode(present(received.at(-1)).operation) as { user: { account: TypedMessage } }).user.account,
      ),
    ).toEqual({
      id: user.uuid,
    });
    await api.removeUser('vmess', 'a@node');
    const { tag, operation } = present(received.at(-1));
    expect(tag).toBe('vmess');
    expect(operation.type).toBe('xray.app.proxyman.command.RemoveUserOperation');
    expect(decode(operation)).toEqual({ email: 'a@node' });
  });

  it('reads per-user bytes and online addresses', async () => {
    expect(trafficByEmail(await api.queryStats('user>>>', true))).toEqual(
      new Map([
        ['a@node', { upload: 120, download: 9_000_000_000 }],
        ['b>>>x@node', { upload: 0, download: 5 }],
      ]),
    );
    const names = await api.onlineUsers();
    const entries = await Promise.all(names.map(async (name) => [name, await api.onlineIps(name)] as const));
    expect(onlineAddresses(entries)).toEqual(new Map([['a@node', ['203.0.113.7', '2001:db8::1']]]));
  });
});
