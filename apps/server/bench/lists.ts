// `npm run bench:lists`: how long the lists take at scale. Seeds a million accounts, one of them
// the inviter of 10,000 and the buyer of 5,000 orders, in a scratch database on the PostgreSQL server
// of TEST_DATABASE_URL (dropped at the end), then calls /web/invite/list and /web/order/list over
// HTTP through the real app, pages interleaved, and prints each page's p50; beside it, the p50 of
// the list's service alone (its queries, without HTTP and the session). Budget: 5 ms on any page.
import { eq } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { users } from '../src/db/schema/index.ts';
import { listInvitations } from '../src/modules/invitations/service.ts';
import { listOrders } from '../src/modules/orders/service.ts';
import { createSession } from '../src/modules/sessions/repository.ts';
import { LIST_OWNER, accountId, seedListData } from '../src/testing/list-data.ts';
import { createServerDatabase } from '../src/testing/test-database.ts';
import { benchApp, median } from './bench-app.ts';

const DATA = { accounts: 1_000_000, invitees: 10_000, orders: 5_000 };
const SIZE = 10;
const SAMPLES = 100;
const WARM_UP = 10;
const BUDGET_MS = 5;

const lists = [
  { url: '/web/invite/list', pages: [1, 500, DATA.invitees / SIZE], service: listInvitations },
  {
    url: '/web/order/list',
    pages: [1, 250, DATA.orders / SIZE],
    service: (...args: Parameters<typeof listInvitations>) => listOrders(...args, new Date()),
  },
];

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const scratch = await createServerDatabase();
process.env.DATABASE_URL = scratch.url;
const { app, database } = await benchApp();
try {
  const seeding = performance.now();
  await seedListData(database.db, DATA);
  console.log(
    `seeded ${DATA.accounts} accounts (${DATA.invitees} invited by one, who has ${DATA.orders} orders) ` +
      `in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const [owner] = await database.db
    .select()
    .from(users)
    .where(eq(users.id, accountId(LIST_OWNER)));
  if (!owner) throw new Error('the seeded owner is missing');
  const token = await createSession(database.db, owner.id);
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  const call = async (url: string, page: number) => {
    const res = await fetch(`${origin}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify({ page, size: SIZE }),
    });
    const reply = (await res.json()) as { code: number; data: { list: unknown[] } };
    if (reply.code !== 200 || reply.data.list.length !== SIZE) throw new Error(`${url} page ${page} failed`);
  };

  for (const { url, pages, service } of lists) {
    const overHttp = pages.map(() => [] as number[]);
    const alone = pages.map(() => [] as number[]);
    for (let round = 0; round < WARM_UP + SAMPLES; round++) {
      for (const [i, page] of pages.entries()) {
        const http = await timed(() => call(url, page));
        const queries = await timed(() => service(database.db, owner, { page, size: SIZE }));
        if (round < WARM_UP) continue;
        overHttp[i]?.push(http);
        alone[i]?.push(queries);
      }
    }
    for (const [i, page] of pages.entries()) {
      const p50 = median(overHttp[i] ?? []);
      console.log(
        `${url} page ${page} (size ${SIZE}), p50 of ${SAMPLES}: ${p50.toFixed(2)} ms ` +
          `(budget ${BUDGET_MS} ms) ${p50 <= BUDGET_MS ? 'OK' : 'OVER'}; ` +
          `its service alone ${median(alone[i] ?? []).toFixed(2)} ms`,
      );
    }
  }
} finally {
  await app.close();
  await database.close();
  await scratch.drop();
}
