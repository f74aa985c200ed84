import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, staffRecoveryCodes } from '../../db/schema/index.ts';
import { useTestApp } from '../../testing/test-app.ts';
import {
  adminCaller,
  type SignedInStaff,
  signedInAMinuteAgo,
  signedInStaff,
  signInWithRecoveryCode,
  totpCode,
} from '../../testing/staff.ts';
import { SECOND_FACTOR_TRIES } from './service.ts';

const NEW_CODE = /^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){5}$/;

describe('the back office: a member makes new recovery codes', () => {
  const logLines: string[] = [];
  const t = useTestApp({}, { log: { write: (line: string) => void logLines.push(line) } });

  /** A member who signed in a minute ago: the code of the time step now is one they have not used. */
  const member = async () =>
    signedInAMinuteAgo(t.database, await signedInStaff(t.app, t.database, 'support'));

  /** A code of 50 bits as the server gave and stored it before codes became long. */
  async function giveOldCode(staffId: string, code: string) {
    const codeHash = createHash('sha256')
      .update(`recovery:${code.replace('-', '')}`)
      .digest('hex');
    await t.database.db.insert(staffRecoveryCodes).values({ staffId, codeHash, bits: 50 });
  }

  const signInWith = (m: SignedInStaff, recovery: string) =>
    signInWithRecoveryCode(
      adminCaller(() => t.app),
      m,
      recovery,
    );

  const codeHashesOf = async (staffId: string) =>
    (
      await t.database.db
        .select({ codeHash: staffRecoveryCodes.codeHash })
        .from(staffRecoveryCodes)
        .where(eq(staffRecoveryCodes.staffId, staffId))
    )
      .map((row) => row.codeHash)
      .sort();

  const auditOf = (staffId: string) =>
    t.database.db.select().from(auditLog).where(eq(auditLog.targetId, staffId)).orderBy(auditLog.id);

  it('replaces every code with ten long ones: the new ones sign in, the earlier and the old kind no longer', async () => {
    const m = await member();
    const other = await member();
    await giveOldCode(m.id, 'k3m9p-x7q2z');
    expect((await m.call('GET', '/session')).json().data).toMatchObject({
      recovery_codes_left: 11,
      old_recovery_codes_left: 1,
    });

    const made = await m.call('POST', '/session/recovery-codes', {
      password: m.password,
      code: totpCode(m.secret),
    });
    expect(made.statusCode).toBe(200);
    expect(made.json().msg).toMatch(/earlier ones no longer work/);
    const codes: string[] = made.json().data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(NEW_CODE);
    expect(codes.some((code) => m.recoveryCodes.includes(code))).toBe(false);
    // The notice of the old kind goes away.
    expect((await m.call('GET', '/session')).json().data).toMatchObject({
      recovery_codes_left: 10,
      old_recovery_codes_left: 0,
    });

    expect((await signInWith(m, m.recoveryCodes[0] ?? '')).json().data.reason).toBe('second_factor_invalid');
    expect((await signInWith(m, 'k3m9p-x7q2z')).json().data.reason).toBe('second_factor_invalid');
    const signedIn = await signInWith(m, codes[3] ?? '');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data.recovery_codes_left).toBe(9);
    // Another member's codes are theirs still.
    expect((await signInWith(other, other.recoveryCodes[0] ?? '')).statusCode).toBe(200);

    // The codes went in that one reply: not in the audit row, not in any log line.
    const [row] = (await auditOf(m.id)).filter((entry) => entry.action === 'staff.recovery_codes_replaced');
    expect(row).toMatchObject({
      staffId: m.id,
      before: { recovery_codes_left: 11, old_recovery_codes_left: 1 },
      after: { recovery_codes_left: 10, old_recovery_codes_left: 0 },
    });
    const log = logLines.join('\n');
    for (const code of codes) {
      const bare = code.replace(/-/g, '');
      expect(JSON.stringify(row)).not.toContain(bare.slice(0, 8));
      expect(log).not.toContain(code);
      expect(log).not.toContain(bare);
    }
    expect(made.headers['cache-control']).toBe('no-store');
  });

  it('changes nothing on a wrong password or a wrong code, and counts both as second-factor tries', async () => {
    const m = await member();
    const before = await codeHashesOf(m.id);
    const wrongPassword = await m.call('POST', '/session/recovery-codes', {
      password: 'not the password',
      code: totpCode(m.secret),
    });
    expect(wrongPassword.json()).toMatchObject({
      code: 400,
      data: { reason: 'credentials_invalid', field: 'password' },
    });
    const wrongCode = await m.call('POST', '/session/recovery-codes', {
      password: m.password,
      code: '000000',
    });
    expect(wrongCode.json()).toMatchObject({
      code: 400,
      data: { reason: 'second_factor_invalid', field: 'code' },
    });
    // In the member's language.
    const call = adminCaller(() => t.app);
    const inChinese = await call('POST', '/session/recovery-codes', {
      cookie: m.cookie,
      csrf: m.csrf,
      body: { password: m.password, code: '000000' },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(inChinese.json().msg).toBe('验证码错误或已被使用');
    expect(await codeHashesOf(m.id)).toEqual(before);
    expect((await auditOf(m.id)).map((row) => row.action)).toEqual(['staff.set_up']);

    for (let i = 3; i < SECOND_FACTOR_TRIES; i++) {
      await m.call('POST', '/session/recovery-codes', { password: m.password, code: '000000' });
    }
    const limited = await m.call('POST', '/session/recovery-codes', {
      password: m.password,
      code: totpCode(m.secret),
    });
    expect(limited.json()).toMatchObject({ code: 429, data: { reason: 'too_many_requests' } });
    expect(await codeHashesOf(m.id)).toEqual(before);
    expect((await signInWith(m, m.recoveryCodes[0] ?? '')).statusCode).toBe(429);
  });

  it('is refused without the session or its CSRF header', async () => {
    const m = await member();
    const before = await codeHashesOf(m.id);
    const call = adminCaller(() => t.app);
    const body = { password: m.password, code: totpCode(m.secret) };
    const signedOut = await call('POST', '/session/recovery-codes', { body });
    expect(signedOut.json()).toMatchObject({ code: 401, data: { reason: 'not_signed_in' } });
    const forged = await call('POST', '/session/recovery-codes', { cookie: m.cookie, body });
    expect(forged.json()).toMatchObject({ code: 403, data: { reason: 'csrf_invalid' } });
    expect(await codeHashesOf(m.id)).toEqual(before);
  });
});
