import { randomBytes } from 'node:crypto';
import type { AlipayServer } from './alipay-server.ts';
import type { EpayServer } from './epay-server.ts';
import type { EpusdtServer } from './epusdt-server.ts';
import { runOrdersJob } from '../modules/orders/orders-job.ts';
import { createGatewayProviders } from '../modules/payments/gateway-providers.ts';
import { createSandboxProvider } from '../modules/payments/sandbox.ts';
import type { SignedInStaff } from './staff.ts';
import type { TestApp } from './test-app.ts';
import { fulfilDeps } from './payments.ts';

/** The SECRETS_KEY of test servers that keep payment gateways. */
export const TEST_SECRETS_KEY = randomBytes(32).toString('hex');

/** A gateway added through the back office as `request` asks: its id. */
async function addGateway(member: SignedInStaff, request: object): Promise<string> {
  const reply = await member.call('POST', '/gateways', request);
  if (reply.statusCode !== 200) throw new Error(`the gateway was not added: ${reply.body}`);
  return (reply.json().data as { id: string }).id;
}

/** An Epay gateway for the stand-in's merchant, added through the back office: its id. */
export const addEpayGateway = (
  member: SignedInStaff,
  epay: Pick<EpayServer, 'url' | 'pid' | 'key'>,
  change: object = {},
) =>
  addGateway(member, {
    kind: 'epay',
    names: { en: 'Alipay (Epay)', zh: '支付宝（易支付）', tw: '支付寶（易支付）' },
    methods: ['alipay', 'wxpay'],
    settings: { url: epay.url, pid: epay.pid },
    keys: { key: epay.key },
    ...change,
  });

/** A USDT gateway for the stand-in, added through the back office: its id. */
export const addEpusdtGateway = (
  member: SignedInStaff,
  epusdt: Pick<EpusdtServer, 'url' | 'token'>,
  change: object = {},
) =>
  addGateway(member, {
    kind: 'epusdt',
    names: { en: 'USDT (TRC20)', zh: 'USDT（TRC20）', tw: 'USDT（TRC20）' },
    methods: ['usdt'],
    settings: { url: epusdt.url },
    keys: { token: epusdt.token },
    ...change,
  });

/** The orders job of one test server, run now, with the gateways its database keeps. */
export const runGatewayOrdersJob = (instance: TestApp) =>
  runOrdersJob(
    {
      ...fulfilDeps(instance),
      provider: createSandboxProvider(),
      gateways: createGatewayProviders(instance.database.db, Buffer.from(TEST_SECRETS_KEY, 'hex')),
      log: instance.app.log,
    },
    new Date(),
  );

/** The back office's request adding an Alipay face-to-face gateway for the stand-in's app, changed as given. */
export function alipayGatewayRequest(
  alipay: Pick<AlipayServer, 'gatewayUrl' | 'appId' | 'alipayPublicKey' | 'appPrivateKey'>,
  change: object = {},
): object {
  return {
    kind: 'alipay_f2f',
    names: { en: 'Alipay', zh: '支付宝', tw: '支付寶' },
    methods: ['alipay'],
    settings: {
      app_id: alipay.appId,
      alipay_public_key: alipay.alipayPublicKey,
      gateway_url: alipay.gatewayUrl,
    },
    keys: { private_key: alipay.appPrivateKey },
    ...change,
  };
}

/** An Alipay face-to-face gateway for the stand-in's app, added through the back office: its id. */
export const addAlipayGateway = (
  member: SignedInStaff,
  alipay: Pick<AlipayServer, 'gatewayUrl' | 'appId' | 'alipayPublicKey' | 'appPrivateKey'>,
  change: object = {},
) => addGateway(member, alipayGatewayRequest(alipay, change));
