import { signParams } from '@skyway/shared/signing';
import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from './storage-keys.ts';

const showError = vi.fn();
const reloadPage = vi.fn();
vi.mock('./toast.ts', () => ({
  ERROR_SECONDS: 5,
  showError: (...args: unknown[]) => showError(...args),
  showSuccess: vi.fn(),
}));
vi.mock('./page.ts', () => ({ reloadPage: () => reloadPage() }));

const { ApiError, callApi, readSigningSecret, shapeRequest } = await import('./api-client.ts');
const { REQUEST_TIMEOUT_MS, http } = await import('./http.ts');
const { getSession, reloadSessionFromStorage, startSession } = await import('./session.ts');

interface Sent {
  url: string | undefined;
  method: string | undefined;
  body: Record<string, unknown>;
  headers: AxiosHeaders;
  timeout: number | undefined;
}

let sent: Sent[] = [];
let reply: (config: InternalAxiosRequestConfig) => Promise<AxiosResponse>;

function envelope(code: number, data: unknown, msg = '') {
  return (config: InternalAxiosRequestConfig): Promise<AxiosResponse> =>
    Promise.resolve({ data: { code, msg, data }, status: code, statusText: '', headers: {}, config });
}

const user = {
  account: 'a@example.com',
  expire_user: 100,
  subscribe_type: 1 as const,
  invite_code: 'X',
  connections: 1,
};

beforeEach(() => {
  sent = [];
  showError.mockClear();
  reloadPage.mockClear();
  reloadSessionFromStorage();
  reply = envelope(200, {});
  http.defaults.adapter = (config) => {
    sent.push({
      url: config.url,
      method: config.method,
      body: JSON.parse(String(config.data)) as Record<string, unknown>,
      headers: AxiosHeaders.from(config.headers),
      timeout: config.timeout,
    });
    return reply(config);
  };
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

  it('always adds t and l, and no s without a secret', () => {
    const { body, headers } = shapeRequest({ email: 'a@b.c' }, base);
    expect(body).toEqual({ email: 'a@b.c', t: 1700000000, l: 'us-en' });
    expect(headers).toEqual({});
  });

  it.each([
    ['zh', 'zh-cn'],
    ['tw', 'tw-cn'],
  ] as const)('sends l for %s as %s', (language, l) => {
    expect(shapeRequest({}, { ...base, language }).body.l).toBe(l);
  });

  it('signs the payload with t and l when there is a secret', () => {
    const { body } = shapeRequest({ b: 2, a: 'x' }, { ...base, secret: 'sec' });
    expect(body.s).toBe(signParams({ a: 'x', b: 2, t: 1700000000, l: 'us-en' }, 'sec'));
    expect(body.s).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sends the bare token only when there is one', () => {
    expect(shapeRequest({}, { ...base, token: 'tok' }).headers).toEqual({ authorization: 'tok' });
  });
});

describe('callApi request', () => {
  it('POSTs JSON to the relative path with a 600000 ms timeout', async () => {
    await callApi('/web/site/conf');
    expect(sent[0]).toMatchObject({ url: '/web/site/conf', method: 'post', timeout: REQUEST_TIMEOUT_MS });
    expect(REQUEST_TIMEOUT_MS).toBe(600_000);
    expect(sent[0]?.headers.get('Content-Type')).toMatch(/application\/json/);
  });

  it('adds t (unix seconds) and l, and no s or authorization when signed out without a secret', async () => {
    vi.useFakeTimers({ now: new Date('2025-01-02T03:04:05Z'), toFake: ['Date'] });
    await callApi('/web/site/conf', { a: 1 });
    expect(sent[0]?.body).toEqual({ a: 1, t: 1735787045, l: 'us-en' });
    expect(sent[0]?.headers.has('authorization')).toBe(false);
  });

  it('signs every request when the server put the secret meta into the page', async () => {
    addSecretMeta('s3cret');
    expect(readSigningSecret()).toBe('s3cret');
    await callApi('/web/user/info', { page: 1 });
    const { s, ...rest } = sent[0]?.body ?? {};
    expect(s).toBe(signParams(rest, 's3cret'));
  });

  it('sends the token when signed in', async () => {
    startSession({ ...user, token: 'tok-1' });
    await callApi('/web/user/info');
    expect(sent[0]?.headers.get('authorization')).toBe('tok-1');
  });
});

describe('callApi reply', () => {
  it('resolves with data on code 200 and stores a new expire_user', async () => {
    startSession({ ...user, token: 'tok' });
    reply = envelope(200, { trial_time: 60, expire_user: 1767225600 });
    await expect(callApi('/web/invite/claim')).resolves.toEqual({ trial_time: 60, expire_user: 1767225600 });
    expect(getSession().user?.expire_user).toBe(1767225600);
  });

  it('shows msg for 5 s and rejects on another code', async () => {
    reply = envelope(409, { reason: 'trial_claimed' }, 'Already claimed');
    await expect(callApi('/web/invite/claim')).rejects.toMatchObject({
      code: 409,
      message: 'Already claimed',
    });
    expect(showError).toHaveBeenCalledWith('Already claimed', 5);
  });

  it('shows nothing for a silent call', async () => {
    reply = envelope(404, {}, 'Not found');
    await expect(callApi('/web/invite/conf', {}, { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(showError).not.toHaveBeenCalled();
  });

  it('on 401 signs out locally, keeps msg for after the reload, and reloads', async () => {
    startSession({ ...user, token: 'tok' });
    reply = envelope(401, {}, 'Please sign in');
    await expect(callApi('/web/user/info')).rejects.toMatchObject({ code: 401 });
    expect(getSession()).toEqual({ token: null, user: null });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.flash)).toBe('Please sign in');
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('shows a 5 s network error when no reply arrives', async () => {
    reply = (config) => Promise.reject(new AxiosError('Network Error', AxiosError.ERR_NETWORK, config));
    await expect(callApi('/web/site/conf')).rejects.toMatchObject({ code: 0 });
    expect(showError).toHaveBeenCalledWith(expect.stringMatching(/network/i), 5);
  });

  it('reports a reply that is not an envelope', async () => {
    reply = (config) => Promise.resolve({ data: '<html>', status: 502, statusText: '', headers: {}, config });
    await expect(callApi('/web/site/conf')).rejects.toMatchObject({ code: 502 });
    expect(showError).toHaveBeenCalledWith(expect.stringContaining('502'), 5);
  });
});
