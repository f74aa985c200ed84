import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession, startSession } from '../../../lib/session.ts';
import { STORAGE_KEYS } from '../../../lib/storage-keys.ts';
import { answer, ok, refused, sentTo } from '../../../test/network.ts';

vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { changeEmail } = await import('./change-email.ts');

const USER = {
  account: 'old@example.com',
  expire_user: 0,
  subscribe_type: 1,
  invite_code: 'ME',
  connections: 1,
} as const;

beforeEach(() => {
  startSession({ token: 'OLD', ...USER });
});

describe('changeEmail', () => {
  it('keeps the session going on the new token that the reply carries', async () => {
    answer('/web/login/email', ok({ ...USER, account: 'new@example.com', token: 'NEW' }, 'E-mail changed'));
    await expect(changeEmail({ email: 'new@example.com', email_code: '123456' })).resolves.toBe(
      'E-mail changed',
    );
    expect(await sentTo('/web/login/email')).toEqual([{ email: 'new@example.com', email_code: '123456' }]);
    expect(getSession()).toEqual({ token: 'NEW', user: { ...USER, account: 'new@example.com' } });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('NEW');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? 'null')).toMatchObject({
      account: 'new@example.com',
    });
  });

  it('leaves the session alone when the call fails', async () => {
    answer('/web/login/email', refused(400, 'code invalid'));
    await expect(changeEmail({ email: 'new@example.com', email_code: '000000' })).rejects.toThrow(
      'code invalid',
    );
    expect(getSession().token).toBe('OLD');
  });
});
