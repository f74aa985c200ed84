import { randomUUID } from 'node:crypto';
import { count, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, providerNotices, telegramStaffLinks, trafficDiscrepancies } from './db/schema/index.ts';
import { createStaff, issueSetupToken } from './modules/staff/repository.ts';
import { outboxMail } from './testing/outbox.ts';
import { sandboxPayment } from './testing/payments.ts';
import {
  adminCaller,
  type SignedInStaff,
  signedInAMinuteAgo,
  signedInStaff,
  totpCode,
} from './testing/staff.ts';
import { TEST_SECRETS_KEY } from './testing/gateways.ts';
import { startTelegramBotApi, type TelegramBotApi } from './testing/telegram-bot-api.ts';
import { signedInUser, useTestApp } from './testing/test-app.ts';

const VLESS_TLS = {
  protocol: 'vless',
  port: 443,
  transport: 'tcp',
  security: 'tls',
  server_name: 'hk.example.com',
};

type Change = () => Promise<{ json(): { code: number } }>;
/** Makes what a change needs (which may write audit rows of its own), then hands back the change. */
type Probe = () => Promise<Change>;

/*
 * Every change a member of staff makes writes exactly one audit row, with what it was and what it
 * became. The routes come from the OpenAPI document, so a new changing route without a probe here
 * fails the first test, and one whose change writes no audit row fails the second.
 */
const NOTICE = {
  title: { en: 'Maintenance', zh: '维护', tw: '維護' },
  body: { en: 'Tonight.', zh: '今晚。', tw: '今晚。' },
};

const EPAY_GATEWAY = {
  kind: 'epay',
  names: { en: 'Alipay', zh: '支付宝', tw: '支付寶' },
  methods: ['alipay'],
  settings: { url: 'https://pay.example.com', pid: '1000' },
  keys: { key: 'probe-merchant-key' },
};

describe('the audit log covers every changing route of the back office', () => {
  // Saving the bot's token checks it with Telegram: here, with its stand-in.
  let telegram: TelegramBotApi;
  beforeAll(async () => {
    telegram = await startTelegramBotApi();
  });
  afterAll(() => telegram.close());
  const t = useTestApp(() => ({ SECRETS_KEY: TEST_SECRETS_KEY, TELEGRAM_API_ROOT: telegram.url }));
  let owner: SignedInStaff;
  const customer = async () => (await signedInUser(t.database)).user.id;
  const node = async () =>
    (await owner.call('POST', '/nodes', { name: 'probe', region: 'HK', host: 'hk.example.com' })).json().data
      .id as string;
  const announcement = async () =>
    (await owner.call('POST', '/announcements', NOTICE)).json().data.id as string;
  let articles = 0;
  const helpArticle = () => {
    articles += 1;
    return {
      slug: `audit-probe-${articles}-${Date.now()}`,
      category: 'troubleshooting',
      position: 0,
      title: { en: 'Probe', zh: '探测', tw: '探測' },
      body: { en: 'Body.', zh: '正文。', tw: '正文。' },
    };
  };
  const article = async () =>
    (await owner.call('POST', '/help/articles', helpArticle())).json().data.id as string;
  const gateway = async () => (await owner.call('POST', '/gateways', EPAY_GATEWAY)).json().data.id as string;
  const coupon = async () =>
    (await owner.call('POST', '/coupons', { kind: 'percent', value: 10 })).json().data.id as string;
  const inbound = async () =>
    (await owner.call('POST', `/nodes/${await node()}/inbounds`, VLESS_TLS)).json().data.id as string;

  const ticket = async () => {
    const { token } = await signedInUser(t.database);
    const opened = await t.app.inject({
      method: 'POST',
      url: '/web/ticket/create',
      headers: { authorization: token },
      payload: { subject: 'Probe', category: 'other', priority: 'low', message: 'Audit probe' },
    });
    return opened.json().data.id as string;
  };
  const savedReply = async () =>
    (await owner.call('POST', '/saved-replies', { title: 'Probe', body: 'Hello' })).json().data.id as string;

  beforeAll(async () => {
    owner = await signedInStaff(t.app, t.database, 'owner');
  });

  /** The member's own session and sign-in are not changes to the business: the log keeps changes. */
  const SESSION_ROUTES = ['POST /session', 'POST /session/second-factor', 'DELETE /session'];
  /**
   * Posted for the size of what they read, or to ask a gateway something, and changing nothing: a
   * notice's or a help article's preview, a gateway's key test.
   */
  const READING_ROUTES = [
    'POST /announcements/preview',
    'POST /help/preview',
    'POST /gateways/{id}/test',
    'POST /telegram/bot/test',
  ];
  /** A member's one-time link to the bot binds nothing until the bot takes it: the binding is audited then. */
  const LINK_ROUTES = ['POST /me/alerts/telegram/link'];

  const probes: Record<string, Probe> = {
    'POST /setup/{token}': async () => {
      const member = await createStaff(t.database.db, {
        email: `audit-${Date.now()}@example.com`,
        role: 'viewer',
        language: 'en',
        invitedBy: null,
      });
      const link = await issueSetupToken(t.database.db, member.id, new Date(Date.now() + 3_600_000));
      const call = adminCaller(() => t.app);
      const secret = (await call('GET', `/setup/${link}`)).json().data.totp_secret as string;
      return () =>
        call('POST', `/setup/${link}`, { body: { password: 'audit password 1', code: totpCode(secret) } });
    },
    'POST /staff': async () => () =>
      owner.call('POST', '/staff', { email: `invited-${Date.now()}@example.com`, role: 'support' }),
    'POST /staff/{id}/invitation': async () => {
      const invited = await owner.call('POST', '/staff', {
        email: `again-${Date.now()}@example.com`,
        role: 'viewer',
      });
      return () => owner.call('POST', `/staff/${invited.json().data.id}/invitation`, {});
    },
    'POST /session/recovery-codes': async () => {
      const member = await signedInAMinuteAgo(t.database, await signedInStaff(t.app, t.database, 'viewer'));
      return () =>
        member.call('POST', '/session/recovery-codes', {
          password: member.password,
          code: totpCode(member.secret),
        });
    },
    'PATCH /staff/{id}': async () => {
      const { id } = await signedInStaff(t.app, t.database, 'viewer');
      return () => owner.call('PATCH', `/staff/${id}`, { role: 'finance' });
    },
    'POST /users/{id}/time': async () => {
      const id = await customer();
      return () => owner.call('POST', `/users/${id}/time`, { days: 2, reason: 'audit probe' });
    },
    'DELETE /users/{id}/sessions': async () => {
      const id = await customer();
      return () => owner.call('DELETE', `/users/${id}/sessions`);
    },
    'PATCH /users/{id}': async () => {
      const id = await customer();
      return () => owner.call('PATCH', `/users/${id}`, { disabled: true, reason: 'audit probe' });
    },
    'PATCH /settings': async () => () => owner.call('PATCH', '/settings', { invite_daily_cap: 12 }),
    'PATCH /plans/{period}': async () => () => owner.call('PATCH', '/plans/year', { unit_price: 19_900 }),
    'POST /mail/{id}/retry': async () => {
      const id = await outboxMail(t.database, 'failed');
      return () => owner.call('POST', `/mail/${id}/retry`);
    },
    'POST /mail/{id}/cancel': async () => {
      const id = await outboxMail(t.database, 'pending');
      return () => owner.call('POST', `/mail/${id}/cancel`);
    },
    'POST /payments/{id}/refund': async () => {
      const id = await sandboxPayment(t);
      return () => owner.call('POST', `/payments/${id}/refund`, { time: 'take_back', reason: 'audit probe' });
    },
    'POST /payments/{id}/refund-outside': async () => {
      // A gateway's payment: the site's own provider's are refunded through it.
      const id = await sandboxPayment(t, 0, `epay:${randomUUID()}`);
      return () =>
        owner.call('POST', `/payments/${id}/refund-outside`, { time: 'keep', reason: 'audit probe' });
    },
    'POST /payments/{id}/settle': async () => {
      const id = await sandboxPayment(t, 100);
      return () => owner.call('POST', `/payments/${id}/settle`, { reason: 'audit probe' });
    },
    'POST /gateways': async () => () => owner.call('POST', '/gateways', EPAY_GATEWAY),
    'POST /telegram/bot': async () => () => owner.call('POST', '/telegram/bot', { token: telegram.token }),
    'POST /me/alerts': async () => () =>
      owner.call('POST', '/me/alerts', { channel: 'mail', kinds: ['attention'], delivery: 'digest' }),
    'POST /me/alerts/telegram/unbind': async () => {
      await t.database.db.insert(telegramStaffLinks).values({ staffId: owner.id, chatId: 770_001 });
      return () => owner.call('POST', '/me/alerts/telegram/unbind', {});
    },
    'PATCH /gateways/{id}': async () => {
      const id = await gateway();
      return () => owner.call('PATCH', `/gateways/${id}`, { enabled: false });
    },
    'POST /coupons': async () => () => owner.call('POST', '/coupons', { kind: 'fixed', value: 500 }),
    'PATCH /coupons/{id}': async () => {
      const id = await coupon();
      return () => owner.call('PATCH', `/coupons/${id}`, { value: 15 });
    },
    'POST /coupons/{id}/status': async () => {
      const id = await coupon();
      return () => owner.call('POST', `/coupons/${id}/status`, { action: 'pause' });
    },
    'POST /nodes': async () => () =>
      owner.call('POST', '/nodes', { name: 'Tokyo 1', region: 'JP', host: 'jp1.example.com' }),
    'PATCH /nodes/{id}': async () => {
      const id = await node();
      return () => owner.call('PATCH', `/nodes/${id}`, { enabled: false });
    },
    'DELETE /nodes/{id}': async () => {
      const id = await node();
      return () => owner.call('DELETE', `/nodes/${id}`);
    },
    'POST /nodes/{id}/token': async () => {
      const id = await node();
      return () => owner.call('POST', `/nodes/${id}/token`);
    },
    'DELETE /nodes/{id}/token': async () => {
      const id = await node();
      await owner.call('POST', `/nodes/${id}/token`);
      return () => owner.call('DELETE', `/nodes/${id}/token`);
    },
    'POST /nodes/{id}/inbounds': async () => {
      const id = await node();
      return () => owner.call('POST', `/nodes/${id}/inbounds`, VLESS_TLS);
    },
    'PATCH /inbounds/{id}': async () => {
      const id = await inbound();
      return () => owner.call('PATCH', `/inbounds/${id}`, { ...VLESS_TLS, port: 8443 });
    },
    'DELETE /inbounds/{id}': async () => {
      const id = await inbound();
      return () => owner.call('DELETE', `/inbounds/${id}`);
    },
    'POST /traffic-discrepancies/{id}/resolve': async () => {
      const [found] = await t.database.db
        .insert(trafficDiscrepancies)
        .values({
          nodeId: await node(),
          hour: new Date('2026-01-01T00:00:00Z'),
          reportedUpload: 1,
          reportedDownload: 2,
          ledgerUpload: 0,
          ledgerDownload: 0,
        })
        .returning();
      return () =>
        owner.call('POST', `/traffic-discrepancies/${found?.id}/resolve`, { reason: 'audit probe' });
    },
    'POST /announcements': async () => () => owner.call('POST', '/announcements', NOTICE),
    'PATCH /announcements/{id}': async () => {
      const id = await announcement();
      return () => owner.call('PATCH', `/announcements/${id}`, { audience: 'with_access' });
    },
    'POST /announcements/{id}/publish': async () => {
      const id = await announcement();
      return () => owner.call('POST', `/announcements/${id}/publish`);
    },
    'POST /announcements/{id}/take-down': async () => {
      const id = await announcement();
      await owner.call('POST', `/announcements/${id}/publish`);
      return () => owner.call('POST', `/announcements/${id}/take-down`);
    },
    'DELETE /announcements/{id}': async () => {
      const id = await announcement();
      return () => owner.call('DELETE', `/announcements/${id}`);
    },
    'POST /help/articles': async () => () => owner.call('POST', '/help/articles', helpArticle()),
    'PATCH /help/articles/{id}': async () => {
      const id = await article();
      return () => owner.call('PATCH', `/help/articles/${id}`, { published: true });
    },
    'DELETE /help/articles/{id}': async () => {
      const id = await article();
      return () => owner.call('DELETE', `/help/articles/${id}`);
    },
    'POST /redeem-batches': async () => () =>
      owner.call('POST', '/redeem-batches', {
        name: 'audit probe',
        count: 2,
        grant: { kind: 'days', days: 1 },
      }),
    'POST /redeem-batches/{id}/revoke': async () => {
      const created = await owner.call('POST', '/redeem-batches', {
        name: 'audit probe',
        count: 1,
        grant: { kind: 'days', days: 1 },
      });
      return () => owner.call('POST', `/redeem-batches/${created.json().data.batch.id}/revoke`, {});
    },
    'POST /redeem-codes/revoke': async () => {
      const created = await owner.call('POST', '/redeem-batches', {
        name: 'audit probe',
        count: 1,
        grant: { kind: 'days', days: 1 },
      });
      const code = (created.json().data.csv as string).trimEnd().split('\r\n')[1];
      return () => owner.call('POST', '/redeem-codes/revoke', { code });
    },
    'POST /tickets/{id}/messages': async () => {
      const id = await ticket();
      return () => owner.call('POST', `/tickets/${id}/messages`, { message: 'An answer' });
    },
    'POST /tickets/{id}/assign': async () => {
      const id = await ticket();
      return () => owner.call('POST', `/tickets/${id}/assign`, { staff_id: owner.id });
    },
    'POST /tickets/{id}/close': async () => {
      const id = await ticket();
      return () => owner.call('POST', `/tickets/${id}/close`);
    },
    'POST /saved-replies': async () => () => owner.call('POST', '/saved-replies', { title: 'T', body: 'B' }),
    'PATCH /saved-replies/{id}': async () => {
      const id = await savedReply();
      return () => owner.call('PATCH', `/saved-replies/${id}`, { title: 'T2', body: 'B2' });
    },
    'DELETE /saved-replies/{id}': async () => {
      const id = await savedReply();
      return () => owner.call('DELETE', `/saved-replies/${id}`);
    },
    'POST /notices/{id}/resolve': async () => {
      const [notice] = await t.database.db
        .insert(providerNotices)
        .values({
          provider: 'stripe',
          kind: 'dispute',
          providerObjectId: `dp_${Date.now()}`,
          amount: 100,
          currency: 'CNY',
        })
        .returning({ id: providerNotices.id });
      return () => owner.call('POST', `/notices/${notice?.id}/resolve`, { reason: 'audit probe' });
    },
  };

  const auditCount = async () => (await t.database.db.select({ n: count() }).from(auditLog))[0]?.n ?? 0;

  async function changingRoutes(): Promise<string[]> {
    const document = (await owner.call('GET', '/openapi.json')).json() as unknown as {
      paths: Record<string, Record<string, unknown>>;
    };
    return Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => method !== 'get' && method !== 'head')
        .map((method) => `${method.toUpperCase()} ${path.replace('/admin/api/v1', '')}`),
    );
  }

  it('has a probe for every changing route the OpenAPI document lists', async () => {
    const routes = await changingRoutes();
    expect(routes.length).toBeGreaterThan(10);
    expect(
      routes
        .filter((route) => ![...SESSION_ROUTES, ...READING_ROUTES, ...LINK_ROUTES].includes(route))
        .sort(),
    ).toEqual(Object.keys(probes).sort());
  });

  for (const [route, probe] of Object.entries(probes)) {
    it(`${route} writes one audit row, with before and after`, async () => {
      const change = await probe();
      const before = await auditCount();
      const newest =
        (await t.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(auditLog.id)).at(-1)?.id ?? 0;
      expect((await change()).json()).toMatchObject({ code: 200 });
      expect((await auditCount()) - before).toBe(1);
      const [row] = (await t.database.db.select().from(auditLog).where(gt(auditLog.id, newest))).slice(-1);
      expect(row?.before ?? row?.after).not.toBeNull();
      expect(row?.after).not.toBeNull();
    });
  }

  it('refuses UPDATE and DELETE on the audit table', async () => {
    const [row] = await t.database.db.select().from(auditLog).limit(1);
    await expect(
      t.database.db
        .update(auditLog)
        .set({ action: 'forged' })
        .where(eq(auditLog.id, row?.id ?? 0)),
    ).rejects.toThrow();
    await expect(t.database.db.delete(auditLog).where(eq(auditLog.id, row?.id ?? 0))).rejects.toThrow();
  });
});
