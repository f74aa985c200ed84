import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { Database } from '../../db/client.ts';
import { deviceSlots, subscriptionFetches } from '../../db/schema/index.ts';
import {
  newClientAddress,
  signedInUser,
  startTestApp,
  useTestApp,
  webCaller,
} from '../../testing/test-app.ts';
import { inAccountTransaction } from '../access/access.ts';
import { createFetchLog } from './fetch-log.ts';

const silentLog = () =>
  ({ warn: vi.fn(), info: vi.fn(), error: vi.fn() }) as unknown as FastifyBaseLogger & {
    warn: ReturnType<typeof vi.fn>;
  };

/** The database, counting its statements, and refusing the next `failures` of them. */
function watched(db: Database) {
  const state = { statements: 0, failures: 0 };
  const proxy = new Proxy(db, {
    get(target, property) {
      if (property === 'execute') {
        return (...args: Parameters<Database['execute']>) => {
          state.statements += 1;
          if (state.failures > 0) {
            state.failures -= 1;
            return Promise.reject(new Error('connection terminated'));
          }
          return target.execute(...args);
        };
      }
      return Reflect.get(target, property, target) as unknown;
    },
  });
  return { db: proxy, state };
}

describe('the subscription fetch log', () => {
  const t = useTestApp();

  /** A customer's two slots. */
  async function slots(): Promise<string[]> {
    const { user } = await signedInUser(t.database);
    await inAccountTransaction(t.database.db, user.id, new Date(), (account) =>
      account.purchase({ id: `order-${user.id}`, days: 31, connections: 2 }),
    );
    const rows = await t.database.db
      .select({ id: deviceSlots.id })
      .from(deviceSlots)
      .where(eq(deviceSlots.userId, user.id));
    return rows.map((row) => row.id);
  }
  const logOf = (slotIds: string[]) =>
    t.database.db.select().from(subscriptionFetches).where(inArray(subscriptionFetches.slotId, slotIds));
  const lastFetchOf = async (slotId: string) =>
    (await t.database.db.select().from(deviceSlots).where(eq(deviceSlots.id, slotId)))[0]?.lastFetchAt;
  const fetchAt = (slotId: string, at: Date, format = 'clash') => ({
    slotId,
    at,
    ip: '198.18.0.1',
    userAgent: 'mihomo/1.19.0',
    format,
  });

  it('writes nothing until it flushes, then every fetch in one statement', async () => {
    const [a = '', b = ''] = await slots();
    const { db, state } = watched(t.database.db);
    const log = createFetchLog({ db, log: silentLog(), flushEveryMs: 60_000 });
    const start = Date.now() - 60_000;
    for (let i = 0; i < 50; i++) log.record(fetchAt(i % 5 === 0 ? b : a, new Date(start + i * 1000)));
    expect(log.pending()).toBe(50);
    expect(await logOf([a, b])).toHaveLength(0);
    await log.flush();
    expect(state.statements).toBe(1);
    expect(log.pending()).toBe(0);
    const logged = await logOf([a, b]);
    expect(logged).toHaveLength(50);
    expect(logged.filter((row) => row.slotId === b)).toHaveLength(10);
    expect(logged[0]).toMatchObject({ ip: '198.18.0.1', userAgent: 'mihomo/1.19.0', format: 'clash' });
    // Each slot's last fetch is its latest one, whatever order they were written in.
    expect((await lastFetchOf(a))?.getTime()).toBe(start + 49_000);
    expect((await lastFetchOf(b))?.getTime()).toBe(start + 45_000);
    // A later flush with an older fetch (another instance's, say) does not move it back.
    log.record(fetchAt(a, new Date(start)));
    await log.flush();
    expect((await lastFetchOf(a))?.getTime()).toBe(start + 49_000);
    expect(await logOf([a])).toHaveLength(41);
    await log.close();
  });

  it('flushes by itself within its interval, and at once when a batch is waiting', async () => {
    const [a = '', b = ''] = await slots();
    const timed = createFetchLog({ db: t.database.db, log: silentLog(), flushEveryMs: 50 });
    for (let i = 0; i < 3; i++) timed.record(fetchAt(a, new Date()));
    await vi.waitFor(async () => expect(await logOf([a])).toHaveLength(3), { timeout: 5_000 });
    const batched = createFetchLog({
      db: t.database.db,
      log: silentLog(),
      flushEveryMs: 60_000,
      flushRows: 10,
    });
    for (let i = 0; i < 10; i++) batched.record(fetchAt(b, new Date()));
    await vi.waitFor(async () => expect(await logOf([b])).toHaveLength(10), { timeout: 5_000 });
    expect(batched.pending()).toBe(0);
    await Promise.all([timed.close(), batched.close()]);
  });

  it('keeps what the database refused, and writes it with the next flush', async () => {
    const [a = ''] = await slots();
    const { db, state } = watched(t.database.db);
    const logger = silentLog();
    const log = createFetchLog({ db, log: logger, flushEveryMs: 60_000 });
    log.record(fetchAt(a, new Date(Date.now() - 2000)));
    log.record(fetchAt(a, new Date(Date.now() - 1000)));
    state.failures = 1;
    await expect(log.flush()).rejects.toThrow('connection terminated');
    expect(logger.warn).toHaveBeenCalledOnce();
    expect(log.pending()).toBe(2);
    log.record(fetchAt(a, new Date()));
    await log.flush();
    expect(await logOf([a])).toHaveLength(3);
    await log.close();
  });

  it('bounds what it keeps while the database is away: the oldest fetches go first', async () => {
    const [a = ''] = await slots();
    const { db, state } = watched(t.database.db);
    const log = createFetchLog({ db, log: silentLog(), flushEveryMs: 60_000, maxPendingRows: 3 });
    const start = Date.now() - 10_000;
    for (let i = 0; i < 5; i++) log.record(fetchAt(a, new Date(start + i * 1000)));
    state.failures = 1;
    await expect(log.flush()).rejects.toThrow();
    expect(log.pending()).toBe(3);
    await log.flush();
    const logged = await logOf([a]);
    expect(logged.map((row) => row.at.getTime()).sort()).toEqual([start + 2000, start + 3000, start + 4000]);
    expect((await lastFetchOf(a))?.getTime()).toBe(start + 4000);
  });

  it('drops the fetches of a slot removed meanwhile, and writes the others', async () => {
    const [a = ''] = await slots();
    const gone = randomUUID();
    const log = createFetchLog({ db: t.database.db, log: silentLog(), flushEveryMs: 60_000 });
    log.record(fetchAt(gone, new Date()));
    log.record(fetchAt(a, new Date()));
    await log.flush();
    expect(await logOf([a, gone])).toHaveLength(1);
  });

  it('writes the fetches still waiting when the app closes', async () => {
    const own = await startTestApp();
    const web = webCaller(
      () => own.app,
      () => newClientAddress(),
    );
    let closed = false;
    try {
      const { user, token } = await signedInUser(own.database);
      await inAccountTransaction(own.database.db, user.id, new Date(), (account) =>
        account.purchase({ id: `order-${user.id}`, days: 31, connections: 1 }),
      );
      const [slot] = (await web('/web/device/list', {}, token)).json().data.devices as {
        id: string;
        url: string;
      }[];
      for (let i = 0; i < 3; i++) {
        const reply = await own.app.inject({
          method: 'GET',
          url: new URL(slot?.url ?? '').pathname,
          headers: { 'user-agent': 'v2rayN/7.5.4' },
          remoteAddress: newClientAddress(),
        });
        expect(reply.statusCode).toBe(200);
      }
      // Waiting for the next flush, within a second: the close does not wait for it.
      expect(own.app.subscriptionFetches.pending()).toBe(3);
      await own.app.close();
      closed = true;
      const logged = await own.database.db
        .select()
        .from(subscriptionFetches)
        .where(eq(subscriptionFetches.slotId, slot?.id ?? ''));
      expect(logged).toHaveLength(3);
      const [row] = await own.database.db
        .select()
        .from(deviceSlots)
        .where(eq(deviceSlots.id, slot?.id ?? ''));
      expect(row?.lastFetchAt).not.toBeNull();
    } finally {
      if (!closed) await own.app.close();
      await own.database.close();
    }
  });
});
