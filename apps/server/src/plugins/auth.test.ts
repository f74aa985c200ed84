import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../db/schema/index.ts';
import { signedInUser, startTestApp, useTestApp } from '../testing/test-app.ts';
import { tokenFromHeader } from '../http/authorization.ts';

const t = useTestApp();

const info = (authorization?: string) =>
  t.app.inject({ method: 'POST', url: '/web/user/info', headers: authorization ? { authorization } : {} });

describe('sign-in on calls', () => {
  it('reads a bare token or a Bearer token', () => {
    expect(tokenFromHeader('abc')).toBe('abc');
    expect(tokenFromHeader('Bearer abc')).toBe('abc');
    expect(tokenFromHeader('  ')).toBeUndefined();
    expect(tokenFromHeader(undefined)).toBeUndefined();
  });

  it('gives the user fields to a signed-in caller, with either header form', async () => {
    const { user, token } = await signedInUser(t.database, { email: 'Alice@Example.com' });
    for (const header of [token, `Bearer ${token}`]) {
      const res = await info(header);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        account: 'Alice@Example.com',
        expire_user: 0,
        subscribe_type: 1,
        invite_code: user.inviteCode,
        connections: 1,
        pending_connections: null,
        pending_from: 0,
        auto_renew: false,
        app_account_token: user.id,
        app_store_expire: 0,
        trial_end: 0,
      });
    }
  });

  it('answers 401 without a token, and says the session has expired with an unknown one', async () => {
    const res = await info();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 401, msg: 'Please sign in', data: { reason: 'not_signed_in' } });
    const unknown = await info('not-a-token');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({
      code: 401,
      msg: 'Your session has expired; please sign in again',
      data: { reason: 'session_expired' },
    });
  });

  it('stores only a hash of the token', async () => {
    const { user, token } = await signedInUser(t.database);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
  });

  it('refuses an expired session and slides a live one forward', async () => {
    const { user, token } = await signedInUser(t.database);
    const past = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: past, expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(sessions.userId, user.id));
    expect((await info(token)).statusCode).toBe(200);
    const [slid] = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(slid?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 60 * 60 * 1000);

    await t.database.db.update(sessions).set({ expiresAt: past }).where(eq(sessions.userId, user.id));
    const expired = await t.app.inject({
      method: 'POST',
      url: '/web/user/info',
      payload: { l: 'zh-cn' },
      headers: { authorization: token },
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({
      code: 401,
      msg: '登录已过期，请重新登录',
      data: { reason: 'session_expired' },
    });
  });

  it('signs out: the token is dead afterwards', async () => {
    const { token } = await signedInUser(t.database);
    const out = await t.app.inject({
      method: 'POST',
      url: '/web/login/out',
      headers: { authorization: token },
    });
    expect(out.json()).toMatchObject({ code: 200, data: {} });
    expect((await info(token)).json()).toMatchObject({ code: 401, data: { reason: 'session_expired' } });
  });

  it('answers 403 to a revoked account', async () => {
    const { user, token } = await signedInUser(t.database);
    await t.database.db.update(users).set({ revokedAt: new Date() }).where(eq(users.id, user.id));
    const res = await info(token);
    expect(res.statusCode).toBe(403);
    expect(res.json().data.reason).toBe('account_revoked');
  });

  it('lets an optional call through without a good token, and gives it the user with one', async () => {
    const { token } = await signedInUser(t.database);
    const verify = (payload: object, authorization?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/web/login/verify_email',
        payload,
        headers: authorization ? { authorization } : {},
      });
    // Another scene goes on without the user, whatever token the browser still holds.
    expect((await verify({ email: 'stale@example.com', scene: 'register' }, 'not-a-token')).json().code).toBe(
      200,
    );
    // The change-email scene needs the user: without one the call itself says so, as a required call would.
    expect((await verify({ email: 'nobody@example.com', scene: 'email' })).json()).toMatchObject({
      code: 401,
      data: { reason: 'not_signed_in' },
    });
    const without = await verify({ email: 'nobody@example.com', scene: 'email' }, 'not-a-token');
    expect(without.json()).toMatchObject({ code: 401, data: { reason: 'session_expired' } });
    const withUser = await t.app.inject({
      method: 'POST',
      url: '/web/login/verify_email',
      payload: { email: 'free-address@example.com', scene: 'email' },
      headers: { authorization: token },
    });
    expect(withUser.json().code).toBe(200);
  });

  it('lets public calls through without a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/web/site/conf' });
    expect(res.json().code).toBe(200);
  });

  it('refuses to start with a /web/ route that does not declare its sign-in need', async () => {
    await expect(
      startTestApp({}, (app) => {
        app.post('/web/test/undeclared', async () => ({}));
      }),
    ).rejects.toThrow(/must declare config.auth/);
  });
});
