import { beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, type Permission, STAFF_ROLES, type StaffRole } from '@skyway/shared/staff';
import { outboxMail } from './testing/outbox.ts';
import { sandboxPayment } from './testing/payments.ts';
import { adminCaller, type SignedInStaff, signedInStaff } from './testing/staff.ts';
import { signedInUser, useTestApp } from './testing/test-app.ts';

/*
 * The permission matrix of packages/shared/src/staff.ts, cell by cell, through the real routes:
 * every role against one call per permission, made so that it succeeds when the role holds the
 * permission. A permission without a probe here does not compile.
 */
describe('the permission matrix, cell by cell through the routes', () => {
  const t = useTestApp();
  const members = new Map<StaffRole, SignedInStaff>();
  const member = (role: StaffRole) => signedInStaff(t.app, t.database, role);
  const customer = async () => (await signedInUser(t.database)).user.id;

  /** A payment of the sandbox for a new order; `short` fen short makes it one for the operator. */
  const payment = (short = 0) => sandboxPayment(t, short);

  beforeAll(async () => {
    for (const role of STAFF_ROLES) members.set(role, await member(role));
  });

  const probes: Record<Permission, (m: SignedInStaff) => ReturnType<SignedInStaff['call']>> = {
    'dashboard.view': (m) => m.call('GET', '/dashboard?tz_offset=-480'),
    'staff.view': (m) => m.call('GET', '/staff'),
    'staff.invite': (m) =>
      m.call('POST', '/staff', { email: `probe-${m.role}-${Date.now()}@example.com`, role: 'viewer' }),
    'staff.manage': async (m) =>
      m.call('PATCH', `/staff/${(await member('viewer')).id}`, { role: 'finance' }),
    'users.view': async (m) => m.call('GET', `/users/${await customer()}`),
    'users.adjust_time': async (m) =>
      m.call('POST', `/users/${await customer()}/time`, { days: 1, reason: 'probe of the matrix' }),
    'users.end_sessions': async (m) => m.call('DELETE', `/users/${await customer()}/sessions`),
    'users.disable': async (m) =>
      m.call('PATCH', `/users/${await customer()}`, { disabled: true, reason: 'probe of the matrix' }),
    'settings.view': (m) => m.call('GET', '/settings'),
    'settings.edit': (m) => m.call('PATCH', '/settings', { invite_daily_cap: 10 }),
    'plans.edit': (m) => m.call('PATCH', '/plans/month', { unit_price: 2500 }),
    'nodes.view': (m) => m.call('GET', '/nodes'),
    'nodes.edit': (m) =>
      m.call('POST', '/nodes', { name: `probe ${m.role}`, region: 'HK', host: 'hk1.example.com' }),
    'mail.view': (m) => m.call('GET', '/mail?status=failed'),
    'mail.retry': async (m) => m.call('POST', `/mail/${await outboxMail(t.database, 'failed')}/retry`),
    'mail.cancel': async (m) => m.call('POST', `/mail/${await outboxMail(t.database, 'pending')}/cancel`),
    'tickets.view': (m) => m.call('GET', '/tickets'),
    'tickets.reply': (m) => m.call('POST', '/saved-replies', { title: `probe ${m.role}`, body: 'Hello' }),
    'notices.view': (m) => m.call('GET', '/announcements'),
    'notices.edit': (m) =>
      m.call('POST', '/announcements', {
        title: { en: 'Probe', zh: '探测', tw: '探測' },
        body: { en: 'A draft.', zh: '草稿。', tw: '草稿。' },
      }),
    'help.view': (m) => m.call('GET', '/help/articles'),
    'help.edit': (m) =>
      m.call('POST', '/help/articles', {
        slug: `probe-${m.role}`,
        category: 'troubleshooting',
        position: 0,
        title: { en: 'Probe', zh: '探测', tw: '探測' },
        body: { en: 'A draft.', zh: '草稿。', tw: '草稿。' },
      }),
    'jobs.view': (m) => m.call('GET', '/jobs'),
    'orders.view': (m) => m.call('GET', '/orders?status=paid'),
    'payments.refund': async (m) =>
      m.call('POST', `/payments/${await payment()}/refund`, { time: 'keep', reason: 'probe of the matrix' }),
    'attention.resolve': async (m) =>
      m.call('POST', `/payments/${await payment(100)}/settle`, { reason: 'probe of the matrix' }),
    'audit.view': (m) => m.call('GET', '/audit'),
    'gateways.edit': (m) => m.call('GET', '/gateways'),
    'telegram.edit': (m) => m.call('GET', '/telegram/bot'),
    'coupons.edit': (m) => m.call('GET', '/coupons'),
    'redeem.edit': (m) => m.call('GET', '/redeem-batches'),
  };

  for (const role of STAFF_ROLES) {
    for (const [permission, roles] of Object.entries(PERMISSIONS) as [Permission, readonly StaffRole[]][]) {
      const allowed = roles.includes(role);
      it(`${role} × ${permission}: ${allowed ? 'allowed' : '403'}`, async () => {
        const reply = await probes[permission](members.get(role) as SignedInStaff);
        if (allowed) expect(reply.json()).toMatchObject({ code: 200 });
        else expect(reply.json()).toMatchObject({ code: 403, data: { reason: 'permission_denied' } });
      });
    }
  }

  it('answers a refusal in the member’s language', async () => {
    const viewer = members.get('viewer') as SignedInStaff;
    const reply = await adminCaller(() => t.app)('GET', '/staff', {
      cookie: viewer.cookie,
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(reply.json().msg).toBe('您的角色无权执行此操作');
  });
});
