import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS, type StaffRole } from '@skyway/shared/staff';
import {
  auditLog,
  mailOutbox,
  staff,
  staffRecoveryCodes,
  staffSessions,
  staffSetupTokens,
} from '../../db/schema/index.ts';
import { newClientAddress, useTestApp } from '../../testing/test-app.ts';
import {
  adminCaller,
  signedInStaff,
  signInWithRecoveryCode,
  staffCookieOf,
  totpCode,
} from '../../testing/staff.ts';
import { createStaff, issueSetupToken } from './repository.ts';
import { inviteOwner, SECOND_FACTOR_TRIES } from './service.ts';

describe('the back office: staff sign-in, sessions and roles', () => {
  const t = useTestApp();
  const caller = () => adminCaller(() => t.app);

  const member = (role: StaffRole) => signedInStaff(t.app, t.database, role);
  const auditOf = (targetId: string) =>
    t.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId)).orderBy(auditLog.id);

  describe('the owner invited by the command line', () => {
    it('sets a password and an authenticator app through the link, once, then signs in with both', async () => {
      const call = caller();
      const link = await inviteOwner(t.database.db, 'Boss@Example.com', 'https://panel.example', new Date());
      expect(link).toMatch(/^https:\/\/panel\.example\/admin\/setup\/[\w-]{43}$/);
      const token = link.split('/').pop() ?? '';

      const info = await call('GET', `/setup/${token}`);
      expect(info.statusCode).toBe(200);
      const { totp_secret: secret, totp_uri: uri, role, email } = info.json().data;
      expect({ role, email }).toEqual({ role: 'owner', email: 'Boss@Example.com' });
      expect(uri).toContain(`secret=${secret}`);
      // Opening the link again shows the same secret: the app scanned on the first visit stays good.
      expect((await call('GET', `/setup/${token}`)).json().data.totp_secret).toBe(secret);

      const wrong = await call('POST', `/setup/${token}`, {
        body: { password: 'a good long password', code: totpCode(secret, 10) },
      });
      expect(wrong.json()).toMatchObject({
        code: 400,
        data: { reason: 'second_factor_invalid', field: 'code' },
      });
      const common = await call('POST', `/setup/${token}`, {
        body: { password: 'password123', code: totpCode(secret) },
      });
      expect(common.json().data.reason).toBe('password_too_common');

      const done = await call('POST', `/setup/${token}`, {
        body: { password: 'a good long password', code: totpCode(secret) },
      });
      expect(done.statusCode).toBe(200);
      const codes: string[] = done.json().data.recovery_codes;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      // 24 characters of a 32-letter alphabet each: 120 random bits, kept as a plain SHA-256.
      for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){5}$/);
      // The link works once.
      expect((await call('GET', `/setup/${token}`)).json()).toMatchObject({
        code: 404,
        data: { reason: 'setup_link_invalid' },
      });

      const first = await call('POST', '/session', {
        body: { email: 'boss@example.com', password: 'a good long password' },
      });
      expect(first.json().data).toEqual({ next: 'second_factor' });
      const half = staffCookieOf(first);
      // Half signed in, nothing else opens.
      expect((await call('GET', '/session', { cookie: half })).statusCode).toBe(401);
      // The code used at set-up is spent: the same code, still inside its window, is refused.
      const replay = await call('POST', '/session/second-factor', {
        cookie: half,
        body: { code: totpCode(secret) },
      });
      expect(replay.json()).toMatchObject({ code: 400, data: { reason: 'second_factor_invalid' } });
      const second = await call('POST', '/session/second-factor', {
        cookie: half,
        body: { code: totpCode(secret, 1) },
      });
      expect(second.statusCode).toBe(200);
      expect(second.json().data).toMatchObject({
        staff: { email: 'Boss@Example.com', role: 'owner', status: 'active' },
        permissions: Object.keys(PERMISSIONS),
        recovery_codes_left: 10,
      });
      const cookie = second.cookies.find((c) => c.name === 'skyway_staff');
      expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/admin' });
      const hours = ((cookie?.expires?.getTime() ?? 0) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(11.9);
      expect(hours).toBeLessThanOrEqual(12);
      // A new token for the signed-in session: the half-open one is over.
      expect(cookie?.value).not.toBe(half);
      expect((await call('GET', '/session', { cookie: half })).statusCode).toBe(401);
      expect((await call('GET', '/session', { cookie: cookie?.value })).statusCode).toBe(200);

      const [owner] = await t.database.db.select().from(staff).where(eq(staff.email, 'Boss@Example.com'));
      const actions = (await auditOf(owner?.id ?? '')).map((row) => [row.action, row.role]);
      expect(actions).toEqual([
        ['staff.invite', 'command_line'],
        ['staff.set_up', 'owner'],
      ]);
      // The command line refuses an owner who is already set up.
      await expect(inviteOwner(t.database.db, 'boss@example.com', 'https://x', new Date())).rejects.toThrow(
        /already a member/,
      );
    });

    it('refuses an expired link', async () => {
      const call = caller();
      const row = await createStaff(t.database.db, {
        email: 'late@example.com',
        role: 'viewer',
        language: 'en',
        invitedBy: null,
      });
      const token = await issueSetupToken(t.database.db, row.id, new Date(Date.now() - 1000));
      expect((await call('GET', `/setup/${token}`)).json().data.reason).toBe('setup_link_invalid');
    });
  });

  describe('signing in', () => {
    it('answers an unknown address, a wrong password and a member not yet set up alike', async () => {
      const m = await member('viewer');
      await createStaff(t.database.db, {
        email: 'pending@example.com',
        role: 'viewer',
        language: 'en',
        invitedBy: null,
      });
      const call = caller();
      const replies = await Promise.all(
        [
          { email: 'nobody@example.com', password: m.password },
          { email: m.email, password: 'not the password' },
          { email: 'pending@example.com', password: m.password },
        ].map((body) => call('POST', '/session', { body })),
      );
      for (const reply of replies) {
        expect(reply.json()).toMatchObject({ code: 400, data: { reason: 'credentials_invalid' } });
        expect(staffCookieOf(reply)).toBeUndefined();
      }
    });

    it('locks an address after 10 failures: the right password then answers like a wrong one', async () => {
      const m = await member('viewer');
      const call = adminCaller(() => t.app, newClientAddress());
      for (let i = 0; i < 10; i++)
        await call('POST', '/session', { body: { email: m.email, password: 'wrong' } });
      const locked = await call('POST', '/session', { body: { email: m.email, password: m.password } });
      expect(locked.json().data.reason).toBe('credentials_invalid');
    });

    it(`ends the half-open session after ${SECOND_FACTOR_TRIES} wrong codes`, async () => {
      const m = await member('viewer');
      const call = caller();
      const first = await call('POST', '/session', { body: { email: m.email, password: m.password } });
      const half = staffCookieOf(first);
      for (let i = 0; i < SECOND_FACTOR_TRIES; i++) {
        const wrong = await call('POST', '/session/second-factor', {
          cookie: half,
          body: { code: '000000' },
        });
        expect(wrong.json().data.reason).toBe('second_factor_invalid');
      }
      const over = await call('POST', '/session/second-factor', {
        cookie: half,
        body: { code: totpCode(m.secret, 1) },
      });
      expect(over.json()).toMatchObject({ code: 429, data: { reason: 'too_many_requests' } });
      expect(
        (await call('POST', '/session/second-factor', { cookie: half, body: { code: '123456' } })).statusCode,
      ).toBe(401);
    });

    it('takes each recovery code once', async () => {
      const m = await member('support');
      const call = caller();
      const signIn = (recovery: string) => signInWithRecoveryCode(call, m, recovery);
      const used = m.recoveryCodes[0] ?? '';
      // Typed in capitals and without the dash, it is the same code.
      const ok = await signIn(used.toUpperCase().replace('-', ''));
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data.recovery_codes_left).toBe(9);
      expect((await signIn(used)).json().data.reason).toBe('second_factor_invalid');
    });

    it('reads the look-alikes o, i and l as 0 and 1, and keeps the shorter codes given before working once', async () => {
      const m = await member('viewer');
      const call = caller();
      const signIn = (recovery: string) => signInWithRecoveryCode(call, m, recovery);
      // Ten codes of 24 characters: one of them holds a 0 or a 1 but once in 10^7.
      const code = m.recoveryCodes.find((c) => /[01]/.test(c)) ?? '';
      const misread = await signIn(code.replace(/0/g, 'O').replace(/1/g, 'l').replace(/-/g, ' '));
      expect(misread.statusCode).toBe(200);

      // A code of 50 bits from before, stored as the server stored it then.
      const legacy = 'k3m9p-x7q2z';
      const codeHash = createHash('sha256')
        .update(`recovery:${legacy.replace('-', '')}`)
        .digest('hex');
      await t.database.db.insert(staffRecoveryCodes).values({ staffId: m.id, codeHash });
      const old = await signIn(legacy.toUpperCase());
      expect(old.statusCode).toBe(200);
      expect((await signIn(legacy)).json().data.reason).toBe('second_factor_invalid');
    });
  });

  describe('sessions', () => {
    it('signs out: the cookie is cleared and the session refused from then on', async () => {
      const m = await member('viewer');
      const out = await m.call('DELETE', '/session');
      expect(out.statusCode).toBe(200);
      expect(out.cookies.find((c) => c.name === 'skyway_staff')?.value).toBe('');
      expect((await m.call('GET', '/session')).json().data.reason).toBe('session_expired');
    });

    it('ends after 30 minutes without a request, and 12 hours after sign-in in any case', async () => {
      const idle = await member('viewer');
      await t.database.db
        .update(staffSessions)
        .set({ lastSeenAt: sql`now() - interval '31 minutes'` })
        .where(eq(staffSessions.staffId, idle.id));
      expect((await idle.call('GET', '/session')).statusCode).toBe(401);

      const old = await member('viewer');
      await t.database.db
        .update(staffSessions)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(staffSessions.staffId, old.id));
      expect((await old.call('GET', '/session')).statusCode).toBe(401);
    });

    it('refuses a change without the session’s CSRF header, and changes nothing', async () => {
      const owner = await member('owner');
      const target = await member('viewer');
      const call = caller();
      for (const csrf of [undefined, 'forged', target.csrf]) {
        const forged = await call('PATCH', `/staff/${target.id}`, {
          cookie: owner.cookie,
          ...(csrf ? { csrf } : {}),
          body: { role: 'admin' },
        });
        expect(forged.json()).toMatchObject({ code: 403, data: { reason: 'csrf_invalid' } });
      }
      const [row] = await t.database.db.select().from(staff).where(eq(staff.id, target.id));
      expect(row?.role).toBe('viewer');
      expect((await owner.call('PATCH', `/staff/${target.id}`, { role: 'support' })).statusCode).toBe(200);
    });

    it('refuses a disabled member’s session at once, and lets them back when enabled', async () => {
      const owner = await member('owner');
      const target = await member('support');
      expect((await target.call('GET', '/session')).statusCode).toBe(200);
      const disabled = await owner.call('PATCH', `/staff/${target.id}`, { disabled: true });
      expect(disabled.json().data.status).toBe('disabled');
      expect((await target.call('GET', '/session')).statusCode).toBe(401);
      const call = caller();
      const again = await call('POST', '/session', {
        body: { email: target.email, password: target.password },
      });
      expect(again.json()).toMatchObject({ code: 403, data: { reason: 'staff_disabled' } });
      await owner.call('PATCH', `/staff/${target.id}`, { disabled: false });
      const back = await call('POST', '/session', {
        body: { email: target.email, password: target.password },
      });
      expect(back.statusCode).toBe(200);
      const audit = await auditOf(target.id);
      expect(
        audit.filter((row) => row.action === 'staff.change').map((row) => [row.before, row.after]),
      ).toEqual([
        [
          { role: 'support', disabled: false },
          { role: 'support', disabled: true },
        ],
        [
          { role: 'support', disabled: true },
          { role: 'support', disabled: false },
        ],
      ]);
      expect(audit.at(-1)).toMatchObject({ staffId: owner.id, staffEmail: owner.email, role: 'owner' });
    });
  });

  describe('the rules of staff changes', () => {
    it('lets an admin invite and manage only the roles below admin', async () => {
      const admin = await member('admin');
      const owner = await member('owner');
      const invite = (role: StaffRole) =>
        admin.call('POST', '/staff', { email: `${role}-${Date.now()}@example.com`, role });
      expect((await invite('owner')).json().data.reason).toBe('permission_denied');
      expect((await invite('admin')).json().data.reason).toBe('permission_denied');
      expect((await invite('finance')).statusCode).toBe(200);
      expect((await admin.call('PATCH', `/staff/${owner.id}`, { disabled: true })).json().data.reason).toBe(
        'permission_denied',
      );
    });

    it('lets nobody change themselves, so an owner always remains', async () => {
      const owner = await member('owner');
      expect((await owner.call('PATCH', `/staff/${owner.id}`, { role: 'viewer' })).json().data.reason).toBe(
        'staff_change_refused',
      );
      expect((await owner.call('PATCH', `/staff/${owner.id}`, { disabled: true })).json().data.reason).toBe(
        'staff_change_refused',
      );
      const other = await member('owner');
      expect((await owner.call('PATCH', `/staff/${other.id}`, { role: 'admin' })).json().data.role).toBe(
        'admin',
      );
      // A new role signs in anew: the member's sessions ended with the change.
      expect((await other.call('GET', '/session')).statusCode).toBe(401);
    });

    it('mails an invitation with a link that expires with it, and refuses a taken address', async () => {
      const owner = await member('owner');
      const email = `invitee-${Date.now()}@example.com`;
      const invited = await owner.call('POST', '/staff', { email, role: 'support', language: 'tw' });
      expect(invited.json()).toMatchObject({
        code: 200,
        data: { email, role: 'support', status: 'invited' },
      });
      const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
      expect(mail).toMatchObject({ template: 'staff_invite', language: 'tw' });
      expect(mail?.codeExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 23.9 * 3_600_000);
      const again = await owner.call('POST', '/staff', { email: email.toUpperCase(), role: 'viewer' });
      expect(again.json()).toMatchObject({ code: 409, data: { reason: 'email_taken' } });
      const resent = await owner.call('POST', `/staff/${invited.json().data.id}/invitation`, {});
      expect(resent.statusCode).toBe(200);
      const links = await t.database.db
        .select()
        .from(staffSetupTokens)
        .where(eq(staffSetupTokens.staffId, invited.json().data.id));
      expect(links).toHaveLength(1);
    });
  });

  describe('the audit log', () => {
    it('is refused UPDATE, DELETE and TRUNCATE by the database itself', async () => {
      const [row] = await t.database.db.select().from(auditLog).limit(1);
      expect(row).toBeDefined();
      await expect(
        t.database.db
          .update(auditLog)
          .set({ action: 'forged' })
          .where(eq(auditLog.id, row?.id ?? 0)),
      ).rejects.toThrow();
      await expect(t.database.db.delete(auditLog).where(eq(auditLog.id, row?.id ?? 0))).rejects.toThrow();
      await expect(t.database.db.execute(sql`truncate audit_log`)).rejects.toThrow();
      const [same] = await t.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.id, row?.id ?? 0));
      expect(same).toEqual(row);
    });

    it('lists changes newest first, filtered by target', async () => {
      const owner = await member('owner');
      const target = await member('viewer');
      await owner.call('PATCH', `/staff/${target.id}`, { role: 'support' });
      const reply = await owner.call('GET', `/audit?target_type=staff&target_id=${target.id}`);
      const { items, total } = reply.json().data;
      expect(total).toBe(2);
      expect(items.map((item: { action: string }) => item.action)).toEqual(['staff.change', 'staff.set_up']);
      expect(items[0]).toMatchObject({ staff_email: owner.email, role: 'owner', ip: expect.any(String) });
    });
  });

  describe('the OpenAPI document', () => {
    it('is served to signed-in staff only, and describes the back office’s API alone', async () => {
      expect((await caller()('GET', '/openapi.json')).statusCode).toBe(401);
      const viewer = await member('viewer');
      const reply = await viewer.call('GET', '/openapi.json');
      expect(reply.statusCode).toBe(200);
      const document = reply.json();
      expect(document.openapi).toMatch(/^3\./);
      const paths = Object.keys(document.paths);
      expect(paths).toEqual(
        expect.arrayContaining(['/admin/api/v1/staff', '/admin/api/v1/staff/{id}', '/admin/api/v1/audit']),
      );
      expect(paths.some((path) => path.startsWith('/web/'))).toBe(false);
      expect(document.paths['/admin/api/v1/staff'].post.requestBody).toBeDefined();
    });
  });
});
