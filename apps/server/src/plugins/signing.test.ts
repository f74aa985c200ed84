import { describe, expect, it } from 'vitest';
import { signParams } from '@skyway/shared/signing';
import { useTestApp } from '../testing/test-app.ts';

const SECRET = 'test-signing-secret';
const t = useTestApp({ SIGNATURE_SECRET: SECRET });

const now = () => Math.floor(Date.now() / 1000);
const signed = (params: Record<string, unknown>) => ({ ...params, s: signParams(params, SECRET) });
const call = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/web/site/conf', payload });

describe('request signing', () => {
  it('accepts a correctly signed call and says signing is on', async () => {
    const res = await call(signed({ t: now(), l: 'us-en' }));
    expect(res.json()).toMatchObject({ code: 200, data: { signing: true } });
  });

  it('refuses a call without a signature', async () => {
    const res = await call({ t: now(), l: 'zh-cn' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 403, msg: '请求缺少签名', data: { reason: 'signature_missing' } });
  });

  it('refuses a wrong signature and a tampered field', async () => {
    const wrong = await call({ t: now(), l: 'us-en', s: 'deadbeef'.repeat(4) });
    expect(wrong.json()).toMatchObject({ code: 403, data: { reason: 'signature_invalid' } });
    const good = signed({ t: now(), l: 'us-en', email: 'a@b.co' });
    const tampered = await call({ ...good, email: 'x@b.co' });
    expect(tampered.json()).toMatchObject({ code: 403, data: { reason: 'signature_invalid' } });
  });

  it('refuses a signature more than 300 s old or ahead, and accepts one at the edge', async () => {
    // Ahead by 302: the server reads its clock after this one, and a second may tick in between.
    for (const t of [now() - 301, now() + 302]) {
      const res = await call(signed({ t, l: 'us-en' }));
      expect(res.json()).toMatchObject({ code: 403, data: { reason: 'signature_stale' } });
    }
    const edge = await call(signed({ t: now() - 295, l: 'us-en' }));
    expect(edge.json().code).toBe(200);
  });

  it('checks multipart and urlencoded bodies the same way', async () => {
    const params = signed({ t: now(), l: 'tw-cn' });
    const form = new URLSearchParams(
      Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const res = await t.app.inject({
      method: 'POST',
      url: '/web/site/conf',
      payload: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.json()).toMatchObject({ code: 200, msg: '操作成功' });
  });

  it('is checked before sign-in, so an unsigned call never reaches the account', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/web/user/info', payload: { t: now() } });
    expect(res.json()).toMatchObject({ code: 403, data: { reason: 'signature_missing' } });
  });
});
