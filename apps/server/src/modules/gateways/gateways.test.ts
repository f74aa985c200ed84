import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, gateways } from '../../db/schema/index.ts';
import { type AlipayServer, rsaKeyPair, startAlipayServer } from '../../testing/alipay-server.ts';
import { type EpayServer, startEpayServer } from '../../testing/epay-server.ts';
import { type EpusdtServer, startEpusdtServer } from '../../testing/epusdt-server.ts';
import {
  addAlipayGateway,
  addEpayGateway,
  addEpusdtGateway,
  alipayGatewayRequest,
  TEST_SECRETS_KEY,
} from '../../testing/gateways.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { startTestApp, useTestApp } from '../../testing/test-app.ts';
import { epaySign, epaySignedText } from './epay-protocol.ts';
import { epusdtSign, epusdtSignedText, fenOfYuan, usdtText } from './epusdt-protocol.ts';
import { fenOf, yuanText } from './yuan.ts';
import { openKeys, sealKeys } from './secrets.ts';
import { checkSecretsKey } from './service.ts';

describe('Epay signatures and amounts', () => {
  it('signs the sorted non-empty fields but sign and sign_type, with the key appended', () => {
    const fields = { pid: '1001', type: 'alipay', money: '1.00', name: '', sign: 'x', sign_type: 'MD5' };
    expect(epaySignedText(fields)).toBe('money=1.00&pid=1001&type=alipay');
    // md5("money=1.00&pid=1001&type=alipay" + "key"), as PHP's md5() gives it.
    expect(epaySign(fields, 'key')).toBe('3a3400f10904b316bbdc6740e2552cf8');
  });

  it('reads money to the fen, and refuses what is not an amount', () => {
    expect(yuanText(2500)).toBe('25.00');
    expect(yuanText(7)).toBe('0.07');
    expect(fenOf('25.00')).toBe(2500);
    expect(fenOf('25.1')).toBe(2510);
    expect(fenOf('25')).toBe(2500);
    for (const bad of ['', '25.001', '-1.00', '1e3', 'abc']) expect(fenOf(bad)).toBeNull();
  });
});

describe('EPUSDT signatures and amounts', () => {
  it('signs the sorted non-empty fields but signature, with the token appended (the documented example)', () => {
    const fields = {
      order_id: '20220201030210321',
      amount: 42,
      notify_url: 'http://example.com/notify',
      redirect_url: 'http://example.com/redirect',
      address: '',
      signature: 'x',
    };
    expect(epusdtSignedText(fields)).toBe(
      'amount=42&notify_url=http://example.com/notify&order_id=20220201030210321&redirect_url=http://example.com/redirect',
    );
    // The signature the API's documentation gives for these fields and this token.
    expect(epusdtSign(fields, 'epusdt_password_xasddawqe')).toBe('1cd4b52df5587cfb1968b0c0c6e156cd');
    // Numbers as the gateway's Go code writes a float: the shortest decimal.
    expect(epusdtSignedText({ amount: 12.5, actual_amount: 1.7361 })).toBe(
      'actual_amount=1.7361&amount=12.5',
    );
  });

  it('reads yuan to the fen and USDT to 4 places, and refuses what is neither', () => {
    expect(fenOfYuan(25)).toBe(2500);
    expect(fenOfYuan(25.1)).toBe(2510);
    expect(fenOfYuan('0.07')).toBe(7);
    for (const bad of [25.001, -1, '1e3', null, true]) expect(fenOfYuan(bad)).toBeNull();
    expect(usdtText(3.4722)).toBe('3.4722');
    expect(usdtText('3.4000')).toBe('3.4');
    expect(usdtText(3)).toBe('3');
    for (const bad of [3.47221, -1, 'abc', null]) expect(usdtText(bad)).toBeNull();
  });
});

describe('sealed gateway keys', () => {
  const key = randomBytes(32);

  it('open with the key and the gateway they were sealed for, and with nothing else', () => {
    const id = randomUUID();
    const sealed = sealKeys(key, id, { key: 'merchant-key' });
    expect(sealed).not.toContain('merchant-key');
    expect(openKeys(key, id, sealed)).toEqual({ key: 'merchant-key' });
    expect(() => openKeys(key, randomUUID(), sealed)).toThrow();
    expect(() => openKeys(randomBytes(32), id, sealed)).toThrow();
  });
});

describe('payment gateways in the back office', () => {
  const t = useTestApp({ SECRETS_KEY: TEST_SECRETS_KEY });
  let epay: EpayServer;
  let epusdt: EpusdtServer;
  let owner: SignedInStaff;
  let finance: SignedInStaff;

  beforeAll(async () => {
    epay = await startEpayServer();
    epusdt = await startEpusdtServer();
    owner = await signedInStaff(t.app, t.database, 'owner');
    finance = await signedInStaff(t.app, t.database, 'finance');
  });
  afterAll(async () => {
    await epay.close();
    await epusdt.close();
  });

  it('adds a gateway whose keys never come back, sealed at rest, audited without them', async () => {
    const id = await addEpayGateway(finance, epay);
    const list = await owner.call('GET', '/gateways');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(epay.key);
    expect(list.json().data.items).toContainEqual(
      expect.objectContaining({
        id,
        kind: 'epay',
        names: { en: 'Alipay (Epay)', zh: '支付宝（易支付）', tw: '支付寶（易支付）' },
        methods: ['alipay', 'wxpay'],
        // Sent to submit.php unless told to use the API.
        settings: { url: epay.url, pid: epay.pid, mode: 'page' },
        keys_set: true,
        enabled: true,
        fee_bps: null,
      }),
    );
    const [row] = await t.database.db.select().from(gateways).where(eq(gateways.id, id));
    expect(row?.sealedKeys).not.toContain(epay.key);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audit.map((entry) => entry.action)).toEqual(['gateway.create']);
    expect(JSON.stringify(audit)).not.toContain(epay.key);
  });

  it('changes a gateway, replacing its keys only when new ones are given', async () => {
    const id = await addEpayGateway(owner, epay);
    const off = await owner.call('PATCH', `/gateways/${id}`, { enabled: false, fee_bps: 150, position: 3 });
    expect(off.json().data).toMatchObject({ enabled: false, fee_bps: 150, position: 3, keys_set: true });
    expect((await owner.call('POST', `/gateways/${id}/test`, {})).json().data.result).toBe('ok');

    const newKey = `new-${randomBytes(8).toString('hex')}`;
    const replaced = await owner.call('PATCH', `/gateways/${id}`, { keys: { key: newKey } });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.body).not.toContain(newKey);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audit.map((entry) => entry.action)).toEqual([
      'gateway.create',
      'gateway.update',
      'gateway.update',
    ]);
    expect(JSON.stringify(audit)).not.toContain(newKey);
    expect(JSON.stringify(audit)).not.toContain(epay.key);
    expect(audit.at(-1)?.after).toMatchObject({ keys_replaced: true });

    const api = await owner.call('PATCH', `/gateways/${id}`, {
      settings: { url: epay.url, pid: epay.pid, mode: 'api' },
    });
    expect(api.json().data.settings).toEqual({ url: epay.url, pid: epay.pid, mode: 'api' });
  });

  it('tests keys: a made-up order is "not found" with the right key, refused with a wrong one', async () => {
    const right = await addEpayGateway(owner, epay);
    const wrong = await addEpayGateway(owner, { ...epay, key: 'not-the-merchant-key' });
    const test = async (id: string) => (await owner.call('POST', `/gateways/${id}/test`, {})).json().data;
    expect(await test(right)).toMatchObject({ result: 'ok' });
    expect(await test(wrong)).toMatchObject({ result: 'keys_refused', message: 'KEY校验失败' });
    const queries = epay.requests.filter((request) => request.path === '/api.php');
    expect(queries.at(-1)?.query).toMatchObject({ act: 'order', pid: epay.pid });

    const gone = await addEpayGateway(owner, { ...epay, url: 'http://127.0.0.1:9' });
    expect(await test(gone)).toMatchObject({ result: 'unreachable' });
  });

  it('adds a USDT gateway with its base URL and a token that never comes back, for USDT only', async () => {
    const id = await addEpusdtGateway(finance, epusdt);
    const list = await owner.call('GET', '/gateways');
    expect(list.body).not.toContain(epusdt.token);
    expect(list.json().data.items).toContainEqual(
      expect.objectContaining({
        id,
        kind: 'epusdt',
        methods: ['usdt'],
        settings: { url: epusdt.url },
        keys_set: true,
      }),
    );
    const [row] = await t.database.db.select().from(gateways).where(eq(gateways.id, id));
    expect(row?.sealedKeys).not.toContain(epusdt.token);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(JSON.stringify(audit)).not.toContain(epusdt.token);

    const alipay = await owner.call('POST', '/gateways', {
      kind: 'epusdt',
      names: { en: 'A', zh: 'A', tw: 'A' },
      methods: ['usdt', 'alipay'],
      settings: { url: epusdt.url },
      keys: { token: epusdt.token },
    });
    expect(alipay.json()).toMatchObject({ code: 400, data: { reason: 'field_invalid' } });
    expect(alipay.json().msg).toContain('methods');
  });

  it("changes a gateway with its own kind's settings, keys and methods only", async () => {
    const usdt = await addEpusdtGateway(owner, epusdt);
    const epayId = await addEpayGateway(owner, epay);
    const change = async (id: string, body: object) =>
      (await owner.call('PATCH', `/gateways/${id}`, body)).json();
    expect(await change(usdt, { methods: ['alipay'] })).toMatchObject({
      code: 400,
      data: { field: 'methods' },
    });
    expect(await change(usdt, { keys: { key: 'a-merchant-key' } })).toMatchObject({
      code: 400,
      data: { field: 'keys' },
    });
    expect(await change(epayId, { keys: { token: 'an-api-token' } })).toMatchObject({
      code: 400,
      data: { field: 'keys' },
    });
    expect(await change(epayId, { settings: { url: epay.url } })).toMatchObject({
      code: 400,
      data: { field: 'settings' },
    });
    const moved = await change(usdt, { settings: { url: `${epusdt.url}/` }, keys: { token: epusdt.token } });
    expect(moved).toMatchObject({ code: 200, data: { settings: { url: `${epusdt.url}/` } } });
    expect((await owner.call('POST', `/gateways/${usdt}/test`, {})).json().data.result).toBe('ok');
  });

  it('tests a USDT token with a signed call that opens no transaction', async () => {
    const right = await addEpusdtGateway(owner, epusdt);
    const wrong = await addEpusdtGateway(owner, { ...epusdt, token: 'not-the-api-token' });
    const gone = await addEpusdtGateway(owner, { ...epusdt, url: 'http://127.0.0.1:9' });
    const opened = epusdt.transactions.size;
    const test = async (id: string) => (await owner.call('POST', `/gateways/${id}/test`, {})).json().data;
    expect(await test(right)).toMatchObject({ result: 'ok' });
    expect(await test(wrong)).toMatchObject({ result: 'keys_refused', message: '签名认证错误' });
    expect(await test(gone)).toMatchObject({ result: 'unreachable' });
    expect(epusdt.transactions.size).toBe(opened);
    expect(epusdt.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/v1/order/create-transaction',
    });
  });

  it('refuses a method twice, and a change to no gateway', async () => {
    const twice = await owner.call('POST', '/gateways', {
      kind: 'epay',
      names: { en: 'A', zh: 'A', tw: 'A' },
      methods: ['alipay', 'alipay'],
      settings: { url: epay.url, pid: epay.pid },
      keys: { key: epay.key },
    });
    expect(twice.json()).toMatchObject({ code: 400 });
    expect((await owner.call('PATCH', `/gateways/${randomUUID()}`, { enabled: false })).json()).toMatchObject(
      {
        code: 404,
      },
    );
  });

  it('keeps a production server with gateways from starting without SECRETS_KEY', async () => {
    await addEpayGateway(owner, epay);
    const key = Buffer.from(TEST_SECRETS_KEY, 'hex');
    await expect(checkSecretsKey(t.database.db, undefined, 'production')).rejects.toThrow(/SECRETS_KEY/);
    await expect(checkSecretsKey(t.database.db, key, 'production')).resolves.toBeUndefined();
    await expect(checkSecretsKey(t.database.db, undefined, 'development')).resolves.toBeUndefined();
  });

  it('refuses to save keys while the server has no SECRETS_KEY', async () => {
    const bare = await startTestApp();
    try {
      const member = await signedInStaff(bare.app, bare.database, 'owner');
      const reply = await member.call('POST', '/gateways', {
        kind: 'epay',
        names: { en: 'A', zh: 'A', tw: 'A' },
        methods: ['alipay'],
        settings: { url: epay.url, pid: epay.pid },
        keys: { key: epay.key },
      });
      expect(reply.json()).toMatchObject({ code: 409, data: { reason: 'secrets_key_unset' } });
      expect(await bare.database.db.select().from(gateways)).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

describe('Alipay face-to-face gateways in the back office', () => {
  const t = useTestApp({ SECRETS_KEY: TEST_SECRETS_KEY });
  let alipay: AlipayServer;
  let owner: SignedInStaff;
  const base64Of = (pem: string) =>
    pem
      .split('\n')
      .filter((line) => line && !line.includes('-----'))
      .join('');

  beforeAll(async () => {
    alipay = await startAlipayServer();
    owner = await signedInStaff(t.app, t.database, 'owner');
  });
  afterAll(() => alipay.close());

  it('adds a gateway whose private key never comes back, sealed at rest, audited without it', async () => {
    const id = await addAlipayGateway(owner, alipay);
    const list = await owner.call('GET', '/gateways');
    expect(list.body).not.toContain(alipay.appPrivateKey.slice(0, 60));
    expect(list.json().data.items).toContainEqual(
      expect.objectContaining({
        id,
        kind: 'alipay_f2f',
        methods: ['alipay'],
        settings: {
          app_id: alipay.appId,
          alipay_public_key: alipay.alipayPublicKey,
          gateway_url: alipay.gatewayUrl,
        },
        keys_set: true,
      }),
    );
    const [row] = await t.database.db.select().from(gateways).where(eq(gateways.id, id));
    expect(row?.sealedKeys).not.toContain(alipay.appPrivateKey.slice(0, 60));
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(JSON.stringify(audit)).not.toContain(alipay.appPrivateKey.slice(0, 60));
  });

  it("calls Alipay's production gateway unless told otherwise, and takes a PKCS#8 key with its PEM lines", async () => {
    const { privateKey } = rsaKeyPair();
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const reply = await owner.call(
      'POST',
      '/gateways',
      alipayGatewayRequest(alipay, {
        settings: { app_id: alipay.appId, alipay_public_key: alipay.alipayPublicKey },
        keys: { private_key: pem },
      }),
    );
    expect(reply.json()).toMatchObject({
      code: 200,
      data: { settings: { gateway_url: 'https://openapi.alipay.com/gateway.do' } },
    });
  });

  it('refuses methods it cannot serve, keys that are not RSA keys, and another kind’s settings', async () => {
    const create = (change: object) => owner.call('POST', '/gateways', alipayGatewayRequest(alipay, change));
    const refused = (field: string) => ({ code: 400, data: { reason: 'field_invalid', field } });
    expect((await create({ methods: ['alipay', 'wxpay'] })).json()).toMatchObject(refused('methods'));
    expect(
      (
        await create({
          settings: {
            app_id: alipay.appId,
            alipay_public_key: 'A'.repeat(200),
            gateway_url: alipay.gatewayUrl,
          },
        })
      ).json(),
    ).toMatchObject(refused('settings'));
    expect((await create({ keys: { private_key: 'B'.repeat(200) } })).json()).toMatchObject(refused('keys'));

    const id = await addAlipayGateway(owner, alipay);
    const change = (body: object) => owner.call('PATCH', `/gateways/${id}`, body);
    expect((await change({ methods: ['wxpay'] })).json()).toMatchObject(refused('methods'));
    expect(
      (await change({ settings: { url: 'https://pay.example.com', pid: '1001' } })).json(),
    ).toMatchObject(refused('settings'));
    expect((await change({ keys: { key: 'an-epay-merchant-key' } })).json()).toMatchObject(refused('keys'));
    const [row] = await t.database.db.select().from(gateways).where(eq(gateways.id, id));
    expect(row).toMatchObject({ methods: ['alipay'], settings: { app_id: alipay.appId } });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audit.map((entry) => entry.action)).toEqual(['gateway.create']);

    const replaced = rsaKeyPair().privateKey.export({ format: 'der', type: 'pkcs1' }).toString('base64');
    const ok = await change({ keys: { private_key: replaced }, enabled: false });
    expect(ok.json()).toMatchObject({ code: 200, data: { enabled: false, keys_set: true } });
    expect(ok.body).not.toContain(replaced.slice(0, 60));
  });

  it('tests keys: ok with the right ones; refused with a wrong app key or Alipay key; unreachable', async () => {
    const test = async (id: string) => (await owner.call('POST', `/gateways/${id}/test`, {})).json().data;
    expect(await test(await addAlipayGateway(owner, alipay))).toMatchObject({ result: 'ok' });
    const queried = alipay.requests.at(-1);
    expect(queried).toMatchObject({ method: 'alipay.trade.query', params: { app_id: alipay.appId } });
    expect(queried?.biz.out_trade_no).toMatch(/^keytest/);

    const otherKey = rsaKeyPair();
    const wrongAppKey = otherKey.privateKey.export({ format: 'der', type: 'pkcs1' }).toString('base64');
    expect(
      await test(await addAlipayGateway(owner, { ...alipay, appPrivateKey: wrongAppKey })),
    ).toMatchObject({
      result: 'keys_refused',
      message: expect.stringContaining('验签出错') as string,
    });
    const wrongAlipayKey = base64Of(otherKey.publicKey.export({ format: 'pem', type: 'spki' }).toString());
    expect(
      await test(await addAlipayGateway(owner, { ...alipay, alipayPublicKey: wrongAlipayKey })),
    ).toMatchObject({ result: 'keys_refused' });
    expect(await test(await addAlipayGateway(owner, { ...alipay, appId: '2021000000000009' }))).toMatchObject(
      {
        result: 'keys_refused',
      },
    );
    expect(
      await test(await addAlipayGateway(owner, { ...alipay, gatewayUrl: 'http://127.0.0.1:9/gateway.do' })),
    ).toMatchObject({ result: 'unreachable' });
  });
});
