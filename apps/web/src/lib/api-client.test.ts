import { ApiError } from '@skyway/shared/api-error';
import { signParams } from '@skyway/shared/signing';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, never, noReply, ok, refused, requestsTo } from '../test/network.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

vi.mock('./toast.ts', () => import('../test/fake-toast.ts'));
vi.mock('./page.ts', () => import('../test/fake-page.ts'));

const { showError } = await import('../test/fake-toast.ts');
const { reloadPage } = await import('../test/fake-page.ts');
const { callApi, readSigningSecret, shapeRequest } = await import('./api-client.ts');
const { REQUEST_TIMEOUT_MS } = await import('./http.ts');
const { getSession, reloadSessionFromStorage, startSession } = await import('./session.ts');

const user = {
  account: 'a@example.com',
  expire_user: 100,
  subscribe_type: 1 as const,
  invite_code: 'X',
  connections: 1,
};

/** The one request made to `path`. */
function sent(path: string) {
  const [request, ...others] = requestsTo(path);
  expect(others, `one request to ${path}`).toHaveLength(0);
  if (!request) throw new Error(`no request to ${path}`);
  return request;
}

beforeEach(() => {
  reloadSessionFromStorage();
});

afterEach(() => {
  vi.useRealTimers();
});

function addSecretMeta(secret: string) {
  const meta = document.createElement('meta');
  meta.name = 'signature-secret';
  meta.content = secret;
  document.head.append(meta);
}

describe('shapeRequest', () => {
  const base = { token: null, language: 'en' as const, secret: null, now: 1700000000 };

  it('always adds t and l, and no s without a secret', async () => {
    const { body, headers } = await shapeRequest({ email: 'a@b.c' }, base);
    expect(body).toEqual({ email: 'a@b.c', t: 1700000000, l: 'us-en' });
    expect(headers).toEqual({});
  });

  it.each([
    ['zh', 'zh-cn'],
    ['tw', 'tw-cn'],
  ] as const)('sends l for %s as %s', async (language, l) => {
    expect((await shapeRequest({}, { ...base, language })).body.l).toBe(l);
  });

  it('signs the payload with t and l when there is a secret', async () => {
    const { body } = await shapeRequest({ b: 2, a: 'x' }, { ...base, secret: 'sec' });
    expect(body.s).toBe(signParams({ a: 'x', b: 2, t: 1700000000, l: 'us-en' }, 'sec'));
    expect(body.s).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sends the bare token only when there is one', async () => {
    expect((await shapeRequest({}, { ...base, token: 'tok' })).headers).toEqual({ authorization: 'tok' });
  });
});

describe('callApi request', () => {
  beforeEach(() => {
    answer('/web/site/conf', ok());
    answer('/web/user/info', ok());
  });

  it('POSTs JSON to the relative path', async () => {
    await callApi('/web/site/conf');
    // Only a POST is answered.
    const { url, headers } = sent('/web/site/conf');
    expect(url).toBe(`${window.location.origin}/web/site/conf`);
    expect(headers.get('Content-Type')).toMatch(/application\/json/);
  });

  it('gives up after 600000 ms without a reply, as when no reply arrives', async () => {
    vi.useFakeTimers();
    answer('/web/site/conf', never);
    let settled = false;
    const outcome = callApi('/web/site/conf').then(
      () => (settled = true),
      (error: unknown) => {
        settled = true;
        return error;
      },
    );
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ code: 0 });
    expect(showError).toHaveBeenCalledWith(expect.stringMatching(/network/i), 5);
    expect(REQUEST_TIMEOUT_MS).toBe(600_000);
  });

  it('adds t (unix seconds) and l, and no s or authorization when signed out without a secret', async () => {
    vi.useFakeTimers({ now: new Date('2025-01-02T03:04:05Z'), toFake: ['Date'] });
    await callApi('/web/site/conf', { a: 1 });
    const { body, headers } = sent('/web/site/conf');
    expect(await body).toEqual({ a: 1, t: 1735787045, l: 'us-en' });
    expect(headers.has('authorization')).toBe(false);
  });

  it('signs every request when the server put the secret meta into the page', async () => {
    addSecretMeta('s3cret');
    expect(readSigningSecret()).toBe('s3cret');
    await callApi('/web/user/info', { page: 1 });
    const { s, ...rest } = await sent('/web/user/info').body;
    expect(s).toBe(signParams(rest, 's3cret'));
  });

  it('sends the token when signed in', async () => {
    startSession({ ...user, token: 'tok-1' });
    await callApi('/web/user/info');
    expect(sent('/web/user/info').headers.get('authorization')).toBe('tok-1');
  });
});

describe('callApi reply', () => {
  it('resolves with data on code 200 and stores a new expire_user', async () => {
    startSession({ ...user, token: 'tok' });
    answer('/web/invite/claim', ok({ trial_time: 60, expire_user: 1767225600 }));
    await expect(callApi('/web/invite/claim')).resolves.toEqual({ trial_time: 60, expire_user: 1767225600 });
    expect(getSession().user?.expire_user).toBe(1767225600);
  });

  it('shows msg for 5 s and rejects on another code, whatever the HTTP status', async () => {
    answer('/web/invite/claim', refused(409, 'Already claimed', { reason: 'trial_claimed' }));
    await expect(callApi('/web/invite/claim')).rejects.toMatchObject({
      code: 409,
      message: 'Already claimed',
      data: { reason: 'trial_claimed' },
    });
    expect(showError).toHaveBeenCalledWith('Already claimed', 5);
  });

  it('resolves a file call with the bytes, and tells its refusal like any other', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);
    answer(
      '/web/ticket/attachment',
      () => new HttpResponse(png, { headers: { 'content-type': 'image/png' } }),
    );
    const file = await callApi<Blob>('/web/ticket/attachment', { id: 'a' }, { file: true });
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);

    answer('/web/ticket/attachment', refused(404, 'Not found'));
    await expect(callApi('/web/ticket/attachment', { id: 'b' }, { file: true })).rejects.toMatchObject({
      code: 404,
      message: 'Not found',
    });
    expect(showError).toHaveBeenCalledWith('Not found', 5);
  });

  it('never takes a reply that is not the envelope for a file when no file was asked for', async () => {
    answer('/web/user/info', () => new HttpResponse('<html>', { headers: { 'content-type': 'text/html' } }));
    await expect(callApi('/web/user/info')).rejects.toMatchObject({ code: 200 });
  });

  it('shows nothing for a silent call', async () => {
    answer('/web/invite/conf', refused(404, 'Not found'));
    await expect(callApi('/web/invite/conf', {}, { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(showError).not.toHaveBeenCalled();
  });

  it('on 401 signs out locally, keeps msg for after the reload, and reloads', async () => {
    startSession({ ...user, token: 'tok' });
    answer('/web/user/info', refused(401, 'Please sign in'));
    await expect(callApi('/web/user/info')).rejects.toMatchObject({ code: 401 });
    expect(getSession()).toEqual({ token: null, user: null });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.flash)).toBe('Please sign in');
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('shows nothing for a background call, but keeps msg of a 401 for after the reload', async () => {
    answer('/web/notice/list', noReply);
    await expect(callApi('/web/notice/list', {}, { background: true })).rejects.toMatchObject({ code: 0 });
    answer('/web/notice/list', refused(404, 'Not found'));
    await expect(callApi('/web/notice/list', {}, { background: true })).rejects.toMatchObject({ code: 404 });
    expect(showError).not.toHaveBeenCalled();

    startSession({ ...user, token: 'tok' });
    answer('/web/notice/list', refused(401, 'Please sign in'));
    await expect(callApi('/web/notice/list', {}, { background: true })).rejects.toMatchObject({ code: 401 });
    expect(getSession()).toEqual({ token: null, user: null });
    expect(sessionStorage.getItem(STORAGE_KEYS.flash)).toBe('Please sign in');
    expect(reloadPage).toHaveBeenCalledTimes(1);
    expect(showError).not.toHaveBeenCalled();
  });

  it('shows a 5 s network error when no reply arrives', async () => {
    answer('/web/site/conf', noReply);
    await expect(callApi('/web/site/conf')).rejects.toMatchObject({ code: 0 });
    expect(showError).toHaveBeenCalledWith(expect.stringMatching(/network/i), 5);
  });

  it('reports a reply that is not an envelope', async () => {
    answer('/web/site/conf', () => new HttpResponse('<html>', { status: 502 }));
    await expect(callApi('/web/site/conf')).rejects.toMatchObject({ code: 502 });
    expect(showError).toHaveBeenCalledWith(expect.stringContaining('502'), 5);
  });
});
