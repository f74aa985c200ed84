import { createHmac, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { issueSetupToken } from './modules/staff/repository.ts';
import { unsubscribeToken } from './modules/unsubscribe/tokens.ts';
import { adminCaller, type SignedInStaff, signedInStaff } from './testing/staff.ts';
import { payingCustomer } from './testing/customers.ts';
import { startAlipayServer } from './testing/alipay-server.ts';
import { startEpayServer } from './testing/epay-server.ts';
import { startEpusdtServer } from './testing/epusdt-server.ts';
import { addAlipayGateway, addEpayGateway, addEpusdtGateway, TEST_SECRETS_KEY } from './testing/gateways.ts';
import { formsOf } from './testing/secret-forms.ts';
import { newClientAddress, TEST_SUBSCRIPTION_KEY, useTestApp, webCaller } from './testing/test-app.ts';

const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;
const METRICS_TOKEN = secret('metrics');
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const STRIPE_KEY = `sk_test_${randomBytes(12).toString('hex')}`;

/**
 * The whole log of a real app, at every level, while it serves every kind of route that carries a
 * secret (in the path, the query, a header, a cookie or a body) and refuses some of them: not one of
 * the secrets it saw may be in it.
 */
describe('the log holds no secret', () => {
  const lines: string[] = [];
  const secrets = new Map<string, string>();
  const remember = (label: string, value: string) => {
    secrets.set(value, label);
    return value;
  };
  const t = useTestApp(
    {
      METRICS_TOKEN,
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: STRIPE_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PUBLIC_URL: 'https://vpn.example.com',
      ORDERS_EVERY_MINUTES: '0',
      SECRETS_KEY: TEST_SECRETS_KEY,
    },
    { log: { write: (line: string) => void lines.push(line) } },
  );
  let admin: SignedInStaff;
  const web = webCaller(
    () => t.app,
    () => newClientAddress(),
  );
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers, remoteAddress: newClientAddress() });

  beforeAll(async () => {
    remember('metrics token', METRICS_TOKEN);
    remember('Stripe webhook secret', WEBHOOK_SECRET);
    remember('Stripe key', STRIPE_KEY);
    remember('SECRETS_KEY', TEST_SECRETS_KEY);
    admin = await signedInStaff(t.app, t.database, 'owner');
    remember('staff session cookie', admin.cookie);
    remember('CSRF token', admin.csrf);
    remember('staff password', admin.password);
    remember('TOTP secret', admin.secret);
    for (const code of admin.recoveryCodes) remember('recovery code', code);
  });

  it('keeps every token, cookie, key and signature it was given out of every line', async () => {
    // A back office set-up link, opened as a page and as a call, and refused with a bad body.
    const invited = await admin.call('POST', '/staff', { email: 'new-admin@example.com', role: 'admin' });
    expect(invited.statusCode, invited.body).toBe(200);
    const { id: memberId } = invited.json().data as { id: string };
    const setup = remember(
      'set-up token',
      await issueSetupToken(t.database.db, memberId, new Date(Date.now() + 3_600_000)),
    );
    const staffCall = adminCaller(() => t.app);
    expect((await get(`/admin/setup/${setup}`)).statusCode).toBe(404);
    expect((await staffCall('GET', `/setup/${setup}`)).statusCode).toBe(200);
    expect((await staffCall('POST', `/setup/${setup}`, { body: { password: 'x' } })).statusCode).toBe(400);
    expect((await get(`/ADMIN/SETUP/${setup}`)).statusCode).toBe(404);

    // A customer signed in with a slot and its subscription link, fetched in every way.
    const { user, token: session } = await payingCustomer(t.database);
    remember('customer session', session);
    const slots = await web('/web/device/list', {}, session);
    const [slot] = slots.json().data.devices as { url: string }[];
    const token = remember('subscription token', new URL(slot?.url ?? '').pathname.slice('/s/'.length));
    expect((await get(`/s/${token}`)).statusCode).toBe(200);
    for (const form of formsOf(token)) {
      await get(`/s/${form}/clash`, { accept: 'text/html' });
      await get(`/S/${form}`);
      await get(`/s/${form}${'x'.repeat(200)}`);
    }

    // An unsubscribe link, shown and used.
    const unsubscribe = remember('unsubscribe token', unsubscribeToken(TEST_SUBSCRIPTION_KEY, user.id));
    expect((await get(`/unsubscribe/${unsubscribe}`)).statusCode).toBe(200);
    const used = await t.app.inject({ method: 'POST', url: `/unsubscribe/${unsubscribe}` });
    expect(used.statusCode).toBeLessThan(400);

    // A node's token, on its own API (bearer) and on UniProxy (query), right and refused.
    const node = (
      await admin.call('POST', '/nodes', { name: 'Secret node', region: 'HK', host: 'n.example.com' })
    ).json().data as { id: string; number: number };
    const nodeToken = remember(
      'node token',
      (await admin.call('POST', `/nodes/${node.id}/token`)).json().data.token as string,
    );
    expect((await get('/node/v1/config', { authorization: `Bearer ${nodeToken}` })).statusCode).toBe(200);
    for (const form of formsOf(nodeToken)) {
      for (const type of ['vless', 'no-such-type']) {
        await get(`/api/v1/server/UniProxy/config?node_id=${node.number}&node_type=${type}&token=${form}`);
      }
      await get(`/api/v1/server/UniProxy/nowhere?Token=${form}`);
    }

    // Signed-in calls: a customer's, a staff member's change, the metrics, a sign-in's password.
    expect((await web('/web/user/info', {}, session)).statusCode).toBe(200);
    expect((await admin.call('PATCH', `/nodes/${node.id}`, { enabled: true })).statusCode).toBe(200);
    expect((await get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).statusCode).toBe(200);
    const password = remember('customer password', secret('password'));
    await web('/web/login/login', { email: user.email, password });

    // A Stripe webhook whose signature (a real one, of another body) is refused.
    const at = Math.floor(Date.now() / 1000);
    const signature = remember(
      'Stripe signature',
      createHmac('sha256', WEBHOOK_SECRET).update(`${at}.{"id":"evt_other"}`).digest('hex'),
    );
    const refused = await t.app.inject({
      method: 'POST',
      url: '/web/pay/stripe/notify',
      headers: { 'content-type': 'application/json', 'stripe-signature': `t=${at},v1=${signature}` },
      payload: '{"id":"evt_sent"}',
    });
    expect(refused.statusCode).toBe(400);

    // An Epay gateway added with its key, its keys tested, and its notify, signed and refused.
    const epay = await startEpayServer();
    try {
      remember('Epay merchant key', epay.key);
      const gatewayId = await addEpayGateway(admin, epay);
      expect((await admin.call('POST', `/gateways/${gatewayId}/test`, {})).statusCode).toBe(200);
      await admin.call('PATCH', `/gateways/${gatewayId}`, { keys: { key: epay.key } });
      const fields = epay.notifyFields('20260101000000nosuchorder');
      expect((await get(`/pay/epay/${gatewayId}/notify?${new URLSearchParams(fields)}`)).body).toBe(
        'success',
      );
      const forged = epay.notifyFields('20260101000000nosuchorder', {}, 'another-key');
      expect((await get(`/pay/epay/${gatewayId}/notify?${new URLSearchParams(forged)}`)).body).toBe('fail');
    } finally {
      await epay.close();
    }

    // A USDT gateway the same way: added with its token, tested, its callback signed and refused.
    const epusdt = await startEpusdtServer();
    try {
      remember('EPUSDT API token', epusdt.token);
      const gatewayId = await addEpusdtGateway(admin, epusdt);
      expect((await admin.call('POST', `/gateways/${gatewayId}/test`, {})).json().data.result).toBe('ok');
      const notify = (payload: object) =>
        t.app.inject({ method: 'POST', url: `/pay/usdt/${gatewayId}/notify`, payload });
      expect((await notify(epusdt.callback('20260101000000nosuchorder'))).body).toBe('ok');
      expect((await notify(epusdt.callback('20260101000000nosuchorder', {}, 'another'))).body).toBe('fail');
    } finally {
      await epusdt.close();
    }

    // An Alipay face-to-face gateway added with its private key, its keys tested and replaced, and
    // its notify, signed and refused.
    const alipay = await startAlipayServer();
    try {
      remember('Alipay app private key', alipay.appPrivateKey);
      const gatewayId = await addAlipayGateway(admin, alipay);
      expect((await admin.call('POST', `/gateways/${gatewayId}/test`, {})).json().data.result).toBe('ok');
      await admin.call('PATCH', `/gateways/${gatewayId}`, { keys: { private_key: alipay.appPrivateKey } });
      const notify = (fields: Record<string, string>) =>
        t.app.inject({
          method: 'POST',
          url: `/pay/alipay/${gatewayId}/notify`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(fields).toString(),
        });
      const fields = alipay.notifyFields('20260101000000nosuchorder');
      expect((await notify(fields)).body).toBe('success');
      expect((await notify({ ...fields, total_amount: '0.01' })).body).toBe('fail');
    } finally {
      await alipay.close();
    }

    // The invitation's mail, written to the log (no SMTP here), arrives with its link hidden.
    await vi.waitFor(() => expect(lines.join('')).toContain('"to":"new-admin@example.com"'));
    const mail = lines.find((line) => line.includes('"to":"new-admin@example.com"'));
    expect(mail).toContain('/admin/setup/[redacted]');

    await t.close();
    const log = lines.join('');
    expect(log).toContain('/s/[redacted]');
    expect(log).toContain('token=[redacted]');
    const found = [...secrets].flatMap(([value, label]) =>
      formsOf(value).some((form) => log.includes(form)) ? [label] : [],
    );
    expect(found).toEqual([]);
  });
});
