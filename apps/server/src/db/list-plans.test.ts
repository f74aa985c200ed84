import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_SECTIONS } from '@skyway/shared/schemas/admin/users';
import {
  clearCancelledWarnings,
  markNewlyInactive,
  revokeWarnedAccounts,
} from '../modules/accounts/inactive-accounts-repository.ts';
import { invitationSummary, invitedPage } from '../modules/invitations/repository.ts';
import { searchUsers, userSectionPage } from '../modules/customers/repository.ts';
import { listOrders } from '../modules/sales/repository.ts';
import { figuresIn, subscriberCounts } from '../modules/dashboard/repository.ts';
import { userOrdersPage } from '../modules/orders/repository.ts';
import {
  LIST_OWNER,
  REWARD_MINUTES,
  accountEmail,
  accountId,
  claimedReward,
  earnedReward,
  ownerOrderId,
  seedListData,
} from '../testing/list-data.ts';
import { describeNode, nodesOf, planRecordingDatabase } from '../testing/query-plans.ts';
import { createServerDatabase, testDatabaseKind } from '../testing/test-database.ts';
import type { Database } from './client.ts';
import { migrateServer } from './migrate.ts';

const DATA = { accounts: 200_000, invitees: 10_000, orders: 5_000 };
const SEEDED_TABLES = ['users', 'invite_rewards', 'orders'];
const SIZE = 10;
const DEEP_PAGE = 500;
/** A time at which no seeded account is due a warning: the inactive-accounts job's usual run. */
const NOBODY_INACTIVE = new Date('2024-02-01T00:00:00Z');

/** Invitees are accounts 2 to invitees + 1, newest first: the one at position i (from 0) of the list. */
const inviteeAt = (position: number) => DATA.invitees + 1 - position;
const ownerOrderAt = (position: number) => DATA.orders - position;
const offsets = (page: number) => Array.from({ length: SIZE }, (_, i) => (page - 1) * SIZE + i);

describe.runIf(testDatabaseKind === 'postgres')('the lists at scale', () => {
  let scratch: Awaited<ReturnType<typeof createServerDatabase>>;
  let recording: ReturnType<typeof planRecordingDatabase>;
  let db: Database;

  beforeAll(async () => {
    scratch = await createServerDatabase();
    await migrateServer(scratch.url);
    recording = planRecordingDatabase(scratch.url);
    db = recording.db;
    await seedListData(db, DATA);
  }, 120_000);
  afterAll(async () => {
    await recording?.pool.end();
    await scratch?.drop();
  });

  const plansOf = (work: (db: Database) => Promise<unknown>) => recording.plansOf(work);

  const owner = accountId(LIST_OWNER);
  const pageAt = (number: number) => ({ limit: SIZE, offset: (number - 1) * SIZE });
  const invitations = (db: Database, number: number) => invitedPage(db, owner, pageAt(number));
  const ownOrders = (db: Database, number: number) => userOrdersPage(db, owner, pageAt(number));

  const calls = [
    ...[1, DEEP_PAGE].flatMap((number) => [
      { name: `the invitation list, page ${number}`, call: (db: Database) => invitations(db, number) },
      { name: `the order list, page ${number}`, call: (db: Database) => ownOrders(db, number) },
    ]),
    { name: "the invitation list's summary", call: (db: Database) => invitationSummary(db, owner) },
    ...[1, DEEP_PAGE].map((number) => ({
      name: `the back office's list of accounts, page ${number}`,
      call: (db: Database) => searchUsers(db, undefined, pageAt(number)),
    })),
    ...['account-12345@', 'ACCOUNT-1999', 'example.com', accountId(4321), 'ABCDEFGH'].map((q) => ({
      name: `the back office's search for ${q}`,
      call: (db: Database) => searchUsers(db, q, pageAt(1)),
    })),
    ...USER_SECTIONS.map((section) => ({
      name: `the ${section} of an account in the back office`,
      call: (db: Database) => userSectionPage(db, owner, section, pageAt(DEEP_PAGE)),
    })),
    ...[1, DEEP_PAGE].flatMap((number) =>
      (['desc', 'asc'] as const).map((order) => ({
        name: `the back office's list of all orders, ${order}, page ${number}`,
        call: (db: Database) => listOrders(db, { order }, pageAt(number)),
      })),
    ),
    {
      name: "the back office's orders of one account",
      call: (db: Database) => listOrders(db, { order: 'desc', userId: owner }, pageAt(1)),
    },
    {
      name: "the dashboard's live figures of the last hour",
      call: (db: Database) =>
        figuresIn(db, { from: new Date(Date.now() - 3_600_000), to: new Date() }, false),
    },
    {
      name: "the dashboard job's hours of a day",
      call: (db: Database) =>
        figuresIn(db, { from: new Date('2024-01-01T00:00:00Z'), to: new Date('2024-01-02T00:00:00Z') }, true),
    },
    {
      name: "the dashboard job's count of subscribers",
      call: (db: Database) => subscriberCounts(db, new Date()),
    },
    {
      name: "the inactive-accounts job's batch of warnings",
      call: (db: Database) => markNewlyInactive(db, NOBODY_INACTIVE, 1000),
    },
    {
      name: "the inactive-accounts job's cancelled warnings",
      call: (db: Database) => clearCancelledWarnings(db, NOBODY_INACTIVE),
    },
    {
      name: "the inactive-accounts job's revocations",
      call: (db: Database) => revokeWarnedAccounts(db, NOBODY_INACTIVE),
    },
  ];

  for (const { name, call } of calls) {
    it(`${name} scans no seeded table`, async () => {
      const nodes = (await plansOf(call)).flatMap(nodesOf);
      const scans = nodes.filter(
        (node) => node['Node Type'] === 'Seq Scan' && SEEDED_TABLES.includes(node['Relation Name'] ?? ''),
      );
      expect(scans.map(describeNode), nodes.map(describeNode).join(' / ')).toEqual([]);
    });
  }

  it('takes a deep page off the index in its order, and reads only its own rows', async () => {
    for (const [list, scan] of [
      [invitations, 'Limit / Index Only Scan users users_invited_by_idx'],
      [ownOrders, 'Limit / Index Only Scan orders orders_user_idx'],
    ] as const) {
      const nodes = (await plansOf((db) => list(db, DEEP_PAGE))).flatMap(nodesOf);
      expect(nodes.map(describeNode).join(' / ')).toContain(scan);
    }
  });

  it('lists the invited accounts newest first, with their rewards, on the first and a deep page', async () => {
    for (const page of [1, DEEP_PAGE]) {
      const rows = await invitations(db, page);
      expect(
        rows.map((row) => ({ email: row.email, minutes: row.minutes, claimed: row.claimedAt !== null })),
      ).toEqual(
        offsets(page)
          .map(inviteeAt)
          .map((n) => ({
            email: accountEmail(n),
            minutes: earnedReward(n) ? REWARD_MINUTES : null,
            claimed: claimedReward(n),
          })),
      );
    }
  });

  it('counts the invited accounts and the rewards not yet withdrawn', async () => {
    const unclaimed = Array.from({ length: DATA.invitees }, (_, i) => inviteeAt(i)).filter(
      (n) => earnedReward(n) && !claimedReward(n),
    ).length;
    expect(await invitationSummary(db, owner)).toEqual({
      total: DATA.invitees,
      unclaimedUsers: unclaimed,
      unclaimedMinutes: unclaimed * REWARD_MINUTES,
    });
  });

  it("lists a user's orders newest first on the first and a deep page", async () => {
    for (const page of [1, DEEP_PAGE]) {
      const { rows, total } = await ownOrders(db, page);
      expect(total).toBe(DATA.orders);
      expect(rows.map((row) => row.id)).toEqual(offsets(page).map(ownerOrderAt).map(ownerOrderId));
    }
  });
});
