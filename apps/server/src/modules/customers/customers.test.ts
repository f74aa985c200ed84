import { setTimeout } from 'node:timers/promises';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deviceSlots, expiryLedger, users } from '../../db/schema/index.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import {
  newClientAddress,
  signedInUser,
  TEST_SUBSCRIPTION_KEY,
  useTestApp,
  webCaller,
} from '../../testing/test-app.ts';
import { inAccountTransaction } from '../access/access.ts';
import { subscriptionToken } from '../devices/tokens.ts';

const DAY_MS = 86_400_000;

describe('customers in the back office', () => {
  const t = useTestApp();
  let support: SignedInStaff;
  const web = webCaller(
    () => t.app,
    () => newClientAddress(),
  );

  beforeAll(async () => {
    support = await signedInStaff(t.app, t.database, 'support');
  });

  const customer = (email?: string) => signedInUser(t.database, email ? { email } : {});

  describe('search', () => {
    it('finds an account by any part of its address, by its id and by its invite code', async () => {
      const { user } = await customer(`Zhang.Wei+${Date.now()}@Mail.Example`);
      const other = (await customer()).user;
      const search = async (q: string) => {
        const reply = await support.call('GET', `/users?q=${encodeURIComponent(q)}`);
        expect(reply.statusCode).toBe(200);
        return reply.json().data.items.map((item: { id: string }) => item.id);
      };
      expect(await search('zhang.wei+')).toEqual([user.id]);
      expect(await search('ANG.WEI')).toEqual([user.id]);
      expect(await search(user.id.toUpperCase())).toEqual([user.id]);
      expect(await search(other.inviteCode.toLowerCase())).toEqual([other.id]);
      // Wildcards stand for themselves.
      expect(await search('%%%')).toEqual([]);
      expect(await search('___')).toEqual([]);
    });

    it('lists every account newest first, a page at a time, and refuses a search under 3 characters', async () => {
      const first = (await customer()).user;
      const second = (await customer()).user;
      const page = (await support.call('GET', '/users?size=2')).json().data;
      expect(page.items.map((item: { id: string }) => item.id)).toEqual([second.id, first.id]);
      expect(page.total).toBeGreaterThanOrEqual(2);
      expect(page.total_capped).toBe(false);
      // Oldest first when the list is turned: these two come last, in their order.
      const oldest = (await support.call('GET', `/users?order=asc&size=100&page=1`)).json().data;
      const lastPage = Math.ceil(oldest.total / 100);
      const tail = (await support.call('GET', `/users?order=asc&size=100&page=${lastPage}`)).json().data
        .items;
      expect(tail.slice(-2).map((item: { id: string }) => item.id)).toEqual([first.id, second.id]);
      expect((await support.call('GET', '/users?order=sideways')).json()).toMatchObject({ code: 400 });
      expect((await support.call('GET', '/users?q=ab')).json()).toMatchObject({
        code: 400,
        data: { reason: 'field_invalid', field: 'q' },
      });
    });
  });

  describe('an account’s page', () => {
    it('shows the account with its inviter, and its lists a page at a time', async () => {
      const inviter = (await customer()).user;
      const { user } = await customer();
      await t.database.db.update(users).set({ invitedBy: inviter.id }).where(eq(users.id, user.id));
      const detail = (await support.call('GET', `/users/${user.id}`)).json().data;
      expect(detail).toMatchObject({
        id: user.id,
        email: user.email,
        invited_by: { id: inviter.id, email: inviter.email },
        trial: null,
        app_store: [],
        live_sessions: 1,
        disabled: false,
      });
      const invitations = (await support.call('GET', `/users/${inviter.id}/invitations`)).json().data;
      expect(invitations).toMatchObject({ total: 1, items: [{ kind: 'invitations', id: user.id }] });
      const sessions = (await support.call('GET', `/users/${user.id}/sessions`)).json().data;
      expect(sessions).toMatchObject({ total: 1, items: [{ kind: 'sessions', revoked_at: null }] });
      for (const section of ['ledger', 'orders', 'payments', 'mail', 'devices', 'fetches']) {
        expect((await support.call('GET', `/users/${user.id}/${section}`)).json().data).toMatchObject({
          total: 0,
          items: [],
        });
      }
      expect((await support.call('GET', `/users/${user.id}/secrets`)).statusCode).toBe(400);
      expect((await support.call('GET', '/users/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    });
  });

  describe('an account’s devices and the fetches of their links', () => {
    /** A customer who bought `connections` slots, with the links the console shows them. */
    async function withSlots(connections: number) {
      const { user, token } = await customer();
      await inAccountTransaction(t.database.db, user.id, new Date(), (account) =>
        account.purchase({ id: `order-${user.id}`, days: 31, connections }),
      );
      const listed = (await web('/web/device/list', {}, token)).json().data.devices as {
        id: string;
        url: string;
      }[];
      const slots = await t.database.db
        .select()
        .from(deviceSlots)
        .where(eq(deviceSlots.userId, user.id))
        .orderBy(asc(deviceSlots.position));
      return { user, token, slots, paths: listed.map((device) => new URL(device.url).pathname) };
    }
    /** A fetch of a link, a few milliseconds after the one before: the log lists them by their time. */
    const fetchLink = async (path: string, userAgent: string, address: string) => {
      await setTimeout(3);
      return t.app.inject({
        method: 'GET',
        url: path,
        headers: { 'user-agent': userAgent },
        remoteAddress: address,
      });
    };
    const section = async (id: string, name: string, query = '') => {
      const reply = await support.call('GET', `/users/${id}/${name}${query}`);
      expect(reply.statusCode).toBe(200);
      return reply;
    };
    /** The fetch log may be written a moment after the reply: waits until the account's list holds `count`. */
    const logged = (id: string, count: number) =>
      expect
        .poll(async () => (await section(id, 'fetches')).json().data.total, { timeout: 5000 })
        .toBe(count);

    it('shows the account’s slots and their fetches, newest first, and nothing of another account', async () => {
      const buyer = await withSlots(2);
      const other = await withSlots(1);
      const [first, second] = buyer.paths;
      await web(
        '/web/device/rename',
        { id: buyer.slots[0]?.id, name: 'Work laptop', platform: 'windows' },
        buyer.token,
      );
      await t.app.inject({
        method: 'POST',
        url: '/web/device/bind',
        payload: {},
        headers: { authorization: buyer.token, 'x-hwid': 'hwid-of-the-laptop' },
        remoteAddress: newClientAddress(),
      });
      expect((await fetchLink(`${first}`, 'mihomo/1.19.0', '198.18.7.1')).statusCode).toBe(200);
      expect((await fetchLink(`${second}/sing-box`, 'SFA/1.10.0', '198.18.7.2')).statusCode).toBe(200);
      expect((await fetchLink(`${first}`, 'Shadowrocket/2070', '198.18.7.3')).statusCode).toBe(200);
      expect((await fetchLink(`${other.paths[0]}`, 'v2rayN/7.0', '198.18.7.4')).statusCode).toBe(200);
      await logged(buyer.user.id, 3);
      await logged(other.user.id, 1);

      const devices = (await section(buyer.user.id, 'devices')).json().data;
      expect(devices.total).toBe(2);
      expect(devices.items).toMatchObject([
        {
          kind: 'devices',
          id: buyer.slots[0]?.id,
          position: 1,
          name: 'Work laptop',
          platform: 'windows',
          hwid: 'hwid-of-the-laptop',
          active: true,
          refused: [],
          upload: 0,
          download: 0,
        },
        { kind: 'devices', id: buyer.slots[1]?.id, position: 2, name: null, hwid: null, active: true },
      ]);
      for (const item of devices.items) expect(item.last_fetch_at).not.toBeNull();

      const fetches = (await section(buyer.user.id, 'fetches')).json().data;
      expect(fetches.total).toBe(3);
      expect(
        fetches.items.map((item: Record<string, unknown>) => [
          item.slot_position,
          item.slot_name,
          item.ip,
          item.user_agent,
          item.format,
        ]),
      ).toEqual([
        [1, 'Work laptop', '198.18.7.3', 'Shadowrocket/2070', 'base64'],
        [2, null, '198.18.7.2', 'SFA/1.10.0', 'sing-box'],
        [1, 'Work laptop', '198.18.7.1', 'mihomo/1.19.0', 'clash'],
      ]);
      const otherFetches = (await section(other.user.id, 'fetches')).json().data;
      expect(otherFetches).toMatchObject({
        total: 1,
        items: [{ user_agent: 'v2rayN/7.0', slot_position: 1 }],
      });
      const otherDevices = (await section(other.user.id, 'devices')).json().data;
      expect(otherDevices.items.map((item: { id: string }) => item.id)).toEqual([other.slots[0]?.id]);
      // An account without slots has empty lists.
      const none = (await customer()).user;
      for (const name of ['devices', 'fetches']) {
        expect((await section(none.id, name)).json().data).toMatchObject({ total: 0, items: [] });
      }
    });

    it('never shows a slot’s credential, secret or link', async () => {
      const buyer = await withSlots(2);
      await fetchLink(`${buyer.paths[0]}`, 'mihomo/1.19.0', newClientAddress());
      await logged(buyer.user.id, 1);
      const slots = await t.database.db
        .select()
        .from(deviceSlots)
        .where(eq(deviceSlots.userId, buyer.user.id));
      const bodies = [
        (await section(buyer.user.id, 'devices')).body,
        (await section(buyer.user.id, 'fetches')).body,
      ].join('\n');
      for (const slot of slots) {
        const secrets = [
          slot.credential,
          slot.secret,
          slot.tokenHash ?? '',
          subscriptionToken(TEST_SUBSCRIPTION_KEY, slot),
        ];
        for (const secret of secrets) {
          expect(secret.length).toBeGreaterThan(20);
          expect(bodies).not.toContain(secret);
        }
      }
      for (const path of buyer.paths) expect(bodies).not.toContain(path);
    });

    it('pages the slots by position and the fetches newest first', async () => {
      const buyer = await withSlots(3);
      const userAgents = ['app/1', 'app/2', 'app/3', 'app/4', 'app/5'];
      for (const userAgent of userAgents) await fetchLink(`${buyer.paths[1]}`, userAgent, newClientAddress());
      await logged(buyer.user.id, userAgents.length);
      const secondSlot = (await section(buyer.user.id, 'devices', '?size=1&page=2')).json().data;
      expect(secondSlot).toMatchObject({ total: 3, page: 2, size: 1, items: [{ position: 2 }] });
      expect(secondSlot.items).toHaveLength(1);
      const pageOf = async (page: number) =>
        (await section(buyer.user.id, 'fetches', `?size=2&page=${page}`))
          .json()
          .data.items.map((item: { user_agent: string }) => item.user_agent);
      expect(await pageOf(1)).toEqual(['app/5', 'app/4']);
      expect(await pageOf(2)).toEqual(['app/3', 'app/2']);
      expect(await pageOf(3)).toEqual(['app/1']);
      expect(await pageOf(4)).toEqual([]);
      expect((await section(buyer.user.id, 'fetches', '?size=2')).json().data.total).toBe(5);
    });
  });

  describe('actions', () => {
    it('adds 3 days with a reason: one ledger row, one audit row, and the customer sees the new expiry', async () => {
      const { user, token } = await customer();
      // Expiries are whole seconds.
      const before = Math.floor(Date.now() / 1000) * 1000;
      const reply = await support.call('POST', `/users/${user.id}/time`, {
        days: 3,
        reason: 'outage in Tokyo',
      });
      expect(reply.statusCode).toBe(200);
      const expireAt = new Date(reply.json().data.expire_at).getTime();
      expect(expireAt - before).toBeGreaterThanOrEqual(3 * DAY_MS);
      expect(expireAt - before).toBeLessThan(3 * DAY_MS + 60_000);
      const info = await web('/web/user/info', {}, token);
      expect(info.json().data.expire_user).toBe(Math.floor(expireAt / 1000));

      const ledger = await t.database.db.select().from(expiryLedger).where(eq(expiryLedger.userId, user.id));
      expect(ledger).toMatchObject([{ reason: 'staff_adjustment', seconds: 3 * 86_400 }]);
      const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, user.id));
      expect(audit).toMatchObject({
        action: 'user.adjust_time',
        staffId: support.id,
        role: 'support',
        before: { expire_at: null },
        after: { seconds: 3 * 86_400, reason: 'outage in Tokyo' },
      });
      const shown = (await support.call('GET', `/users/${user.id}/ledger`)).json().data.items;
      expect(shown).toMatchObject([{ kind: 'ledger', reason: 'staff_adjustment', seconds: 3 * 86_400 }]);
    });

    it('takes time back, never below now', async () => {
      const { user } = await customer();
      await support.call('POST', `/users/${user.id}/time`, { days: 2, reason: 'goodwill' });
      const reply = await support.call('POST', `/users/${user.id}/time`, {
        days: -5,
        reason: 'given by mistake',
      });
      const expireAt = new Date(reply.json().data.expire_at).getTime();
      expect(Math.abs(expireAt - Date.now())).toBeLessThan(60_000);
    });

    it('refuses a change without a reason or without an amount, and changes nothing', async () => {
      const { user } = await customer();
      for (const body of [
        { days: 3 },
        { days: 3, reason: ' ' },
        { days: 0, hours: 0, reason: 'nothing' },
        { days: 'x', reason: 'bad' },
      ]) {
        const reply = await support.call('POST', `/users/${user.id}/time`, body);
        expect(reply.json()).toMatchObject({ code: 400 });
      }
      const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
      expect(row?.expireAt).toBeNull();
      expect(await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, user.id))).toEqual([]);
    });

    it('signs an account out everywhere', async () => {
      const { user, token } = await customer();
      expect((await web('/web/user/info', {}, token)).statusCode).toBe(200);
      expect((await support.call('DELETE', `/users/${user.id}/sessions`)).statusCode).toBe(200);
      expect((await web('/web/user/info', {}, token)).json()).toMatchObject({
        code: 401,
        data: { reason: 'session_expired' },
      });
    });

    it('disables an account (its sessions end, its sign-in is refused) and enables it again', async () => {
      const { user, token } = await customer();
      const off = await support.call('PATCH', `/users/${user.id}`, {
        disabled: true,
        reason: 'chargeback fraud',
      });
      expect(off.json().data.disabled).toBe(true);
      expect((await web('/web/user/info', {}, token)).statusCode).toBe(401);
      const on = await support.call('PATCH', `/users/${user.id}`, {
        disabled: false,
        reason: 'cleared by the bank',
      });
      expect(on.json().data.disabled).toBe(false);
      const actions = await t.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.targetId, user.id))
        .orderBy(auditLog.id);
      expect(actions.map((row) => [row.action, row.after])).toEqual([
        ['user.disable', { disabled: true, reason: 'chargeback fraud' }],
        ['user.enable', { disabled: false, reason: 'cleared by the bank' }],
      ]);
    });
  });
});
