import * as grpc from '@grpc/grpc-js';
import type { ServiceDefinition } from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssUserKey } from '@skyway/shared/shadowsocks';
import { testInbound } from '../testing/v2ray-client.ts';
import { CoreApi, ipBytes, loadProtos } from './grpc-api.ts';
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
  const routing: { name: string; request: Record<string, unknown> }[] = [];
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
    const routingCall =
      (name: string) =>
      (call: grpc.ServerUnaryCall<Record<string, unknown>, object>, done: grpc.sendUnaryData<object>) => {
        routing.push({ name, request: call.request });
        done(null, {});
      };
    server.addService(service('xray.app.router.command.RoutingService'), {
      AddRule: routingCall('AddRule'),
      RemoveRule: routingCall('RemoveRule'),
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

  it('adds a rule refusing a user from given IPv4, IPv6 and IPv4-mapped addresses', async () => {
    await api.addRefusalRule(
      'refuse:slot-1',
      'slot-1',
      ['127.0.0.3', '2001:db8::1', '::ffff:10.0.0.9'],
      'blocked',
    );
    const { name, request } = present(routing.at(-1));
    expect(name).toBe('AddRule');
    expect(request.shouldAppend).toBe(true);
    const config = request.config as TypedMessage;
    expect(config.type).toBe('xray.app.router.Config');
    const { rule } = decode(config) as {
      rule: {
        tag: string;
        rule_tag: string;
        user_email: string[];
        source_ip: { custom: { cidr: { ip: Uint8Array; prefix: number } } }[];
      }[];
    };
    expect(rule).toHaveLength(1);
    const [added] = rule;
    expect(added?.tag).toBe('blocked');
    expect(added?.rule_tag).toBe('refuse:slot-1');
    expect(added?.user_email).toEqual(['slot-1']);
    expect(
      added?.source_ip.map(({ custom: { cidr } }) => ({
        ip: Buffer.from(cidr.ip).toString('hex'),
        prefix: cidr.prefix,
      })),
    ).toEqual([
      { ip: '7f000003', prefix: 32 },
      { ip: '20010db8000000000000000000000001', prefix: 128 },
      { ip: '0a000009', prefix: 32 },
    ]);
  });

  it('removes a routing rule by its rule tag', async () => {
    await api.removeRule('refuse:slot-1');
    expect(routing.at(-1)).toEqual({ name: 'RemoveRule', request: { ruleTag: 'refuse:slot-1' } });
  });

  it('refuses an address that is not an IP before calling the core', async () => {
    const calls = routing.length;
    expect(() =>
      api.addRefusalRule('refuse:slot-2', 'slot-2', ['127.0.0.4', 'not-an-ip'], 'blocked'),
    ).toThrow('not an IP address: not-an-ip');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(routing).toHaveLength(calls);
  });

  it('turns IP text into its bytes', () => {
    const hex = (address: string) => Buffer.from(ipBytes(address)).toString('hex');
    expect(hex('203.0.113.7')).toBe('cb007107');
    expect(hex('::')).toBe('0'.repeat(32));
    expect(hex('fe80::1:2')).toBe('fe800000000000000000000000010002');
    expect(hex('::FFFF:192.0.2.1')).toBe('c0000201');
    expect(hex('64:ff9b::192.0.2.33')).toBe('0064ff9b0000000000000000c0000221');
    for (const bad of ['', '1.2.3', '256.1.1.1', 'fe80::1%eth0', '1:2:3:4:5:6:7:8:9']) {
      expect(() => ipBytes(bad)).toThrow('not an IP address');
    }
  });
});
