import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { useTestApp } from '../testing/test-app.ts';
import { ok, replies } from '../http/envelope.ts';

const t = useTestApp(
  { BODY_LIMIT: '2048' },
  {
    extend: (app) => {
      app.withTypeProvider<ZodTypeProvider>().post(
        '/web/test/echo',
        {
          config: { auth: 'public' },
          schema: {
            body: z.object({ email: z.email(), page: z.coerce.number().int().min(1).optional() }),
            response: replies(z.object({ email: z.string(), page: z.number().optional() })),
          },
        },
        async (request) => ok(request, request.body),
      );
      app.post(
        '/web/test/boom',
        { config: { auth: 'public' }, schema: { response: replies(z.object({})) } },
        async () => {
          throw new Error('secret database detail');
        },
      );
    },
  },
);

function multipart(fields: Record<string, string>, file?: { name: string; content: string }) {
  const boundary = '----skywayTestBoundary';
  let body = '';
  for (const [name, value] of Object.entries(fields)) {
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  if (file) {
    body +=
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="a.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\n${file.content}\r\n`;
  }
  body += `--${boundary}--\r\n`;
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('bodies', () => {
  it('accepts JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/web/test/echo',
      payload: { email: 'a@b.co', page: 2 },
    });
    expect(res.json()).toEqual({ code: 200, msg: 'Success', data: { email: 'a@b.co', page: 2 } });
  });

  it('accepts urlencoded', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/web/test/echo',
      payload: 'email=a%40b.co&page=3',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.json().data).toEqual({ email: 'a@b.co', page: 3 });
  });

  it('accepts multipart form fields', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/web/test/echo',
      ...multipart({ email: 'a@b.co', page: '4' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ email: 'a@b.co', page: 4 });
  });

  it('accepts an empty multipart body, with or without the closing boundary', async () => {
    const closed = await t.app.inject({ method: 'POST', url: '/web/site/conf', ...multipart({}) });
    expect(closed.json().code).toBe(200);
    const bare = await t.app.inject({
      method: 'POST',
      url: '/web/site/conf',
      payload: '',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(bare.json().code).toBe(200);
  });

  it('accepts an empty JSON body and no body at all', async () => {
    const empty = await t.app.inject({
      method: 'POST',
      url: '/web/site/conf',
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.json().code).toBe(200);
    const none = await t.app.inject({ method: 'POST', url: '/web/site/conf' });
    expect(none.json().code).toBe(200);
  });

  it('refuses a multipart file', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/web/test/echo',
      ...multipart({ email: 'a@b.co' }, { name: 'avatar', content: 'hello' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, data: { reason: 'files_not_accepted' } });
  });

  it('answers an oversized body of any encoding with a 413 envelope', async () => {
    const big = 'x'.repeat(4096);
    const replies = await Promise.all([
      t.app.inject({ method: 'POST', url: '/web/test/echo', payload: { email: big } }),
      t.app.inject({
        method: 'POST',
        url: '/web/test/echo',
        payload: `email=${big}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      t.app.inject({ method: 'POST', url: '/web/test/echo', ...multipart({ email: big }) }),
    ]);
    for (const res of replies) {
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({
        code: 413,
        msg: 'The request is too large',
        data: { reason: 'payload_too_large' },
      });
    }
  });

  it('answers malformed JSON and unknown content types with an envelope', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/web/test/echo',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.json()).toMatchObject({ code: 400, data: { reason: 'body_invalid' } });
    const text = await t.app.inject({
      method: 'POST',
      url: '/web/test/echo',
      payload: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.json()).toMatchObject({ code: 415, data: { reason: 'unsupported_media_type' } });
  });

  it('answers multipart without a boundary with a 400 envelope', async () => {
    for (const type of [
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; x=1',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/web/test/echo',
        payload: 'email=a%40b.co',
        headers: { 'content-type': type },
      });
      expect(res.json(), type).toMatchObject({ code: 400, data: { reason: 'body_invalid' } });
    }
  });

  it('refuses a NUL character in any field, in every encoding, naming the field', async () => {
    const nul = 'a\u0000b@b.co';
    const replies = [
      await t.app.inject({ method: 'POST', url: '/web/test/echo', payload: { email: nul } }),
      await t.app.inject({
        method: 'POST',
        url: '/web/test/echo',
        payload: 'email=a%00b%40b.co',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      await t.app.inject({ method: 'POST', url: '/web/test/echo', ...multipart({ email: nul }) }),
      await t.app.inject({
        method: 'POST',
        url: '/web/test/echo',
        payload: { email: 'a@b.co', x: [{ y: nul }] },
      }),
    ];
    for (const res of replies) {
      expect(res.statusCode).toBe(400);
      expect(res.json().data).toMatchObject({ reason: 'field_invalid' });
    }
    expect(replies[0]?.json().data.field).toBe('email');
    expect(replies[3]?.json().data.field).toBe('x');
  });

  it('refuses a NUL character in a path parameter or the query too', async () => {
    for (const url of ['/pay/sandbox/x%00y', '/web/test/echo?l=%00']) {
      const res = await t.app.inject({ method: url.startsWith('/pay') ? 'GET' : 'POST', url, payload: {} });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().data.reason).toBe('field_invalid');
    }
  });

  it('reads a JSON body nested thousands deep without failing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/web/test/echo',
      payload: `{"email":${'['.repeat(1000)}${']'.repeat(1000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.json()).toMatchObject({ code: 400, data: { reason: 'field_invalid', field: 'email' } });
  });
});

describe('malformed addresses', () => {
  it('answers an undecodable URL with a 400 envelope and the security headers', async () => {
    for (const url of ['/web/order/list%ff', '/web/%', '/%c0%af', '/web/login/login%']) {
      const res = await t.app.inject({ method: 'POST', url, payload: {} });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ code: 400, data: { reason: 'url_invalid' } });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });
});

describe('envelope', () => {
  it('names the missing field in the caller language', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/web/test/echo', payload: { l: 'zh-cn' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 400,
      msg: '请输入邮箱',
      data: { reason: 'field_required', field: 'email' },
    });
  });

  it('names an invalid field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/web/test/echo',
      payload: { email: 'a@b.co', page: 'x' },
    });
    expect(res.json()).toEqual({
      code: 400,
      msg: 'page is not valid',
      data: { reason: 'field_invalid', field: 'page' },
    });
    const tw = await t.app.inject({
      method: 'POST',
      url: '/web/test/echo',
      payload: { email: 'nope', l: 'tw-cn' },
    });
    expect(tw.json().msg).toBe('電子郵件格式不正確');
  });

  it('hides internals of a 5xx and gives the request id', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/web/test/boom',
      headers: { 'accept-language': 'zh-TW' },
    });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body.code).toBe(500);
    expect(body.msg).toBe('伺服器出了點問題，請稍後重試');
    expect(JSON.stringify(body)).not.toContain('secret database detail');
    expect(body.data.request_id).toBe(res.headers['x-request-id']);
    expect(body.data.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unknown /web/ path with a 404 envelope, whatever the method', async () => {
    for (const method of ['POST', 'GET'] as const) {
      const res = await t.app.inject({ method, url: '/web/no/such/call' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 404, msg: 'Not found', data: { reason: 'not_found' } });
    }
  });
});

describe('language of msg', () => {
  const msgFor = async (payload: object, headers: Record<string, string> = {}, query = '') =>
    (await t.app.inject({ method: 'POST', url: `/web/no/such${query}`, payload, headers })).json().msg;

  it('follows l, then Accept-Language, then English', async () => {
    expect(await msgFor({ l: 'zh-cn' }, { 'accept-language': 'en' })).toBe('未找到');
    expect(await msgFor({ l: 'tw-cn' })).toBe('找不到');
    expect(await msgFor({ l: 'us-en' }, { 'accept-language': 'zh-CN' })).toBe('Not found');
    expect(await msgFor({}, {}, '?l=zh-cn')).toBe('未找到');
    expect(await msgFor({}, { 'accept-language': 'zh-HK,zh;q=0.8' })).toBe('找不到');
    expect(await msgFor({}, { 'accept-language': 'zh-CN' })).toBe('未找到');
    expect(await msgFor({}, { 'accept-language': 'fr-FR' })).toBe('Not found');
    expect(await msgFor({})).toBe('Not found');
  });

  it('accepts t, l and s on every call when signing is off', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/web/site/conf',
      payload: { t: 1700000000, l: 'zh-cn', s: 'whatever' },
    });
    expect(res.json()).toMatchObject({ code: 200, msg: '操作成功', data: { signing: false } });
  });
});
