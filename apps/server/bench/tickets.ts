// `npm run bench:tickets`: the two ticket lists at scale. Seeds a million tickets over 100,000
// accounts (2% waiting for staff, the rest answered or closed; account 1 holds 40 of them) with
// `generate_series`, in a scratch database on the PostgreSQL server of TEST_DATABASE_URL (dropped at
// the end), then calls the staff queue (GET /admin/api/v1/tickets, default filters, first page) and
// the customer's list (/web/ticket/list, first page) over HTTP through the real app, and prints each
// one's p50, with the p50 of its repository query alone beside it. Budget: 5 ms each.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { ADMIN_API_PREFIX } from '../src/admin-api.ts';
import { createSession } from '../src/modules/sessions/repository.ts';
import { createStaff, openStaffSession } from '../src/modules/staff/repository.ts';
import { staffCookieFor } from '../src/modules/staff/signed-in-staff.ts';
import { customerTickets, ticketQueue } from '../src/modules/tickets/repository.ts';
import { accountId, seedListData } from '../src/testing/list-data.ts';
import { createServerDatabase } from '../src/testing/test-database.ts';
import { benchApp, median } from './bench-app.ts';

const DATA = { accounts: 100_000, tickets: 1_000_000, ownTickets: 40 };
const SIZE = 20;
const SAMPLES = 200;
const WARM_UP = 20;
const BUDGET_MS = 5;
const HOUR_MS = 3_600_000;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * The tickets: ticket k belongs to account 1 for the first `ownTickets`, else to account
 * 2 + k % (accounts - 1); every 50th waits for staff (open), the others are answered or closed, over
 * the year before now, as a busy site's table would be.
 */
async function seedTickets(database: Awaited<ReturnType<typeof benchApp>>['database']) {
  const { accounts, tickets, ownTickets } = DATA;
  await database.db.execute(sql`
    insert into tickets (user_id, subject, category, priority, state, waiting_since, answered_at,
      first_response_at, last_message_at, closed_at, closed_by, created_at)
    select
      ('00000000-0000-4000-8000-' || lpad(to_hex(case when k <= ${ownTickets} then 1 else 2 + k % (${accounts} - 1) end), 12, '0'))::uuid,
      'Ticket ' || k,
      (array['account', 'payment', 'connection', 'other'])[1 + k % 4]::ticket_category,
      (array['low', 'medium', 'high'])[1 + k % 3]::ticket_priority,
      (case when k % 50 = 0 then 'open' when k % 50 = 1 then 'answered' else 'closed' end)::ticket_state,
      case when k % 50 = 0 then at end,
      case when k % 50 <> 0 then at + interval '2 hours' end,
      case when k % 50 <> 0 then at + interval '2 hours' end,
      at + interval '2 hours',
      case when k % 50 > 1 then at + interval '1 day' end,
      case when k % 50 > 1 then 'customer'::ticket_closer end,
      at
    from (
      select k, now() - interval '365 days' + k * (interval '365 days' / ${tickets}) as at
      from generate_series(1, ${tickets}) as k
    ) as seeded`);
  await database.db.execute(sql`vacuum analyze tickets`);
}

const scratch = await createServerDatabase();
process.env.DATABASE_URL = scratch.url;
const { app, database } = await benchApp({ TICKETS_EVERY_MINUTES: '0' });
try {
  const seeding = performance.now();
  await seedListData(database.db, { accounts: DATA.accounts, invitees: 0, orders: 0 });
  await seedTickets(database);
  console.log(
    `seeded ${DATA.tickets} tickets over ${DATA.accounts} accounts in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );

  const owner = accountId(1);
  const token = await createSession(database.db, owner);
  const member = await createStaff(database.db, {
    email: 'bench-support@example.com',
    role: 'support',
    language: 'en',
    invitedBy: null,
  });
  const now = new Date();
  const staffToken = await openStaffSession(database.db, {
    staffId: member.id,
    stage: 'signed_in',
    expiresAt: new Date(now.getTime() + 12 * HOUR_MS),
    now,
    ip: '127.0.0.1',
    userAgent: 'bench',
  });
  const cookie = `${staffCookieFor(undefined).name}=${staffToken}`;
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });

  const runs: { name: string; http: () => Promise<void>; alone: () => Promise<unknown>; budget?: number }[] =
    [
      {
        // What any back-office call costs before its own work (the session's lookup and touch, CSRF,
        // the envelope): the floor under the queue's figure.
        name: 'a staff call with nothing to read (GET /saved-replies, none saved)',
        http: async () => {
          const res = await fetch(`${origin}${ADMIN_API_PREFIX}/saved-replies`, { headers: { cookie } });
          if (((await res.json()) as { code: number }).code !== 200) throw new Error('the call failed');
        },
        alone: () => Promise.resolve(),
      },
      {
        name: 'staff queue (GET /tickets, default filters, page 1)',
        http: async () => {
          const res = await fetch(`${origin}${ADMIN_API_PREFIX}/tickets?size=${SIZE}`, {
            headers: { cookie },
          });
          const reply = (await res.json()) as { code: number; data: { items: unknown[] } };
          if (reply.code !== 200 || reply.data.items.length !== SIZE) throw new Error('the queue failed');
        },
        alone: () => ticketQueue(database.db, { state: 'open' }, { limit: SIZE, offset: 0 }),
        budget: BUDGET_MS,
      },
      {
        name: "a customer's list (/web/ticket/list, page 1)",
        http: async () => {
          const res = await fetch(`${origin}/web/ticket/list`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: token },
            body: JSON.stringify({ page: 1, size: SIZE }),
          });
          const reply = (await res.json()) as { code: number; data: { list: unknown[] } };
          if (reply.code !== 200 || reply.data.list.length !== SIZE) throw new Error('the list failed');
        },
        alone: () => customerTickets(database.db, owner, { limit: SIZE, offset: 0 }),
        budget: BUDGET_MS,
      },
    ];

  for (const run of runs) {
    const overHttp: number[] = [];
    const alone: number[] = [];
    for (let round = 0; round < WARM_UP + SAMPLES; round++) {
      const http = await timed(run.http);
      const queries = await timed(run.alone);
      if (round < WARM_UP) continue;
      overHttp.push(http);
      alone.push(queries);
    }
    const p50 = median(overHttp);
    const verdict = run.budget ? ` (budget ${run.budget} ms) ${p50 <= run.budget ? 'OK' : 'OVER'}` : '';
    if (run.budget && p50 > run.budget) process.exitCode = 1;
    console.log(
      `${run.name}, p50 of ${SAMPLES}: ${p50.toFixed(2)} ms${verdict}; its query alone ${median(alone).toFixed(2)} ms`,
    );
  }
} finally {
  await app.close();
  await database.close();
  await scratch.drop();
}
