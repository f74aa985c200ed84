import { and, asc, count, desc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { SortOrder } from '@skyway/shared/schemas/admin/common';
import type { UserSection } from '@skyway/shared/schemas/admin/users';
import type { Database } from '../../db/client.ts';
import { countUpToCap, inOrder } from '../../db/lists.ts';
import {
  appStoreSubscriptions,
  deviceSlots,
  expiryLedger,
  mailOutbox,
  orders,
  payments,
  sessions,
  subscriptionFetches,
  trialClaims,
  users,
  type UserRow,
} from '../../db/schema/index.ts';
import { userOrdersPage } from '../orders/repository.ts';
import { NO_USAGE, usageThisPeriod } from '../traffic/usage.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INVITE_CODE = /^[A-Za-z0-9]{8}$/;

/** `%`, `_` and `\` stand for themselves in a search. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * What a search matches: the id, the invite code, or any part of the address. Each alternative has
 * its index (the primary key, `users_invite_code_key`, the trigram index `users_email_trgm_idx`).
 * Undefined: no search, every account.
 */
function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  if (UUID.test(q)) return eq(users.id, q.toLowerCase());
  const alternatives: SQL[] = [sql`lower(${users.email}) like ${`%${likeEscaped(q.toLowerCase())}%`}`];
  if (INVITE_CODE.test(q)) alternatives.push(eq(users.inviteCode, q.toUpperCase()));
  return or(...alternatives);
}

/** A page of accounts, newest (or oldest) first, and how many match, counted up to the cap. */
export async function searchUsers(
  db: Database,
  q: string | undefined,
  page: { limit: number; offset: number },
  order: SortOrder = 'desc',
) {
  const where = searchCondition(q);
  const sorted = inOrder(order, users.createdAt, users.id);
  // The newest-first index ends the count at the cap when matches are many (or there is no search),
  // the trigram index finds them when they are few.
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(...sorted)
      .limit(page.limit)
      .offset(page.offset),
    countUpToCap(db, (limit) =>
      db
        .select({ one: sql`1` })
        .from(users)
        .where(where)
        .orderBy(...sorted)
        .limit(limit)
        .as('capped'),
    ),
  ]);
  return { rows, ...counted };
}

export async function findUser(db: Database, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** What an account's page shows beside its row: its inviter, trial, App Store subscriptions and live sessions. */
export async function userSurroundings(db: Database, user: UserRow, now: Date) {
  const [inviter, trial, appStore, [live]] = await Promise.all([
    user.invitedBy
      ? db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, user.invitedBy))
      : Promise.resolve([]),
    db.select().from(trialClaims).where(eq(trialClaims.userId, user.id)),
    db.select().from(appStoreSubscriptions).where(eq(appStoreSubscriptions.userId, user.id)),
    db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, now))),
  ]);
  return { inviter: inviter[0] ?? null, trial: trial[0] ?? null, appStore, liveSessions: live?.n ?? 0 };
}

interface Page {
  limit: number;
  offset: number;
}

/**
 * A page of one of an account's lists with its count, each read off an index on the account: newest
 * first, but its device slots, in their positions' order.
 */
export async function userSectionPage(db: Database, userId: string, section: UserSection, page: Page) {
  const pageOf = async <Row>(rows: Promise<Row[]>, total: Promise<{ n: number }[]>) => {
    const [list, [counted]] = await Promise.all([rows, total]);
    return { rows: list, total: counted?.n ?? 0 };
  };
  switch (section) {
    case 'ledger': {
      const mine = eq(expiryLedger.userId, userId);
      return {
        section,
        ...(await pageOf(
          db
            .select()
            .from(expiryLedger)
            .where(mine)
            .orderBy(desc(expiryLedger.createdAt), desc(expiryLedger.id))
            .limit(page.limit)
            .offset(page.offset),
          db.select({ n: count() }).from(expiryLedger).where(mine),
        )),
      };
    }
    case 'orders':
      return { section, ...(await userOrdersPage(db, userId, page)) };
    case 'payments': {
      const theirOrders = db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId));
      const mine = inArray(payments.orderId, theirOrders);
      return {
        section,
        ...(await pageOf(
          db
            .select()
            .from(payments)
            .where(mine)
            .orderBy(desc(payments.createdAt), desc(payments.id))
            .limit(page.limit)
            .offset(page.offset),
          db.select({ n: count() }).from(payments).where(mine),
        )),
      };
    }
    case 'sessions': {
      const mine = eq(sessions.userId, userId);
      return {
        section,
        ...(await pageOf(
          db
            .select()
            .from(sessions)
            .where(mine)
            .orderBy(desc(sessions.createdAt), desc(sessions.id))
            .limit(page.limit)
            .offset(page.offset),
          db.select({ n: count() }).from(sessions).where(mine),
        )),
      };
    }
    case 'invitations': {
      const mine = eq(users.invitedBy, userId);
      return {
        section,
        ...(await pageOf(
          db
            .select({ id: users.id, email: users.email, createdAt: users.createdAt })
            .from(users)
            .where(mine)
            .orderBy(desc(users.createdAt), desc(users.id))
            .limit(page.limit)
            .offset(page.offset),
          db.select({ n: count() }).from(users).where(mine),
        )),
      };
    }
    case 'mail': {
      const mine = eq(mailOutbox.userId, userId);
      return {
        section,
        ...(await pageOf(
          db
            .select({
              id: mailOutbox.id,
              template: mailOutbox.template,
              subject: mailOutbox.subject,
              status: mailOutbox.status,
              attempts: mailOutbox.attempts,
              error: mailOutbox.error,
              createdAt: mailOutbox.createdAt,
              sentAt: mailOutbox.sentAt,
            })
            .from(mailOutbox)
            .where(mine)
            .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
            .limit(page.limit)
            .offset(page.offset),
          db.select({ n: count() }).from(mailOutbox).where(mine),
        )),
      };
    }
    case 'devices': {
      // The slot's columns a page shows, never its credential, secret or token.
      const mine = eq(deviceSlots.userId, userId);
      const { rows, total } = await pageOf(
        db
          .select({
            id: deviceSlots.id,
            position: deviceSlots.position,
            name: deviceSlots.name,
            platform: deviceSlots.platform,
            hwid: deviceSlots.hwid,
            active: deviceSlots.active,
            createdAt: deviceSlots.createdAt,
            lastFetchAt: deviceSlots.lastFetchAt,
            refused: deviceSlots.refusedAddresses,
          })
          .from(deviceSlots)
          .where(mine)
          .orderBy(asc(deviceSlots.position))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ n: count() }).from(deviceSlots).where(mine),
      );
      const usage = await usageThisPeriod(
        db,
        rows.map((row) => row.id),
        new Date(),
      );
      return {
        section,
        total,
        rows: rows.map((row) => ({ ...row, usage: usage.get(row.id) ?? NO_USAGE })),
      };
    }
    case 'fetches': {
      // The account's slots off `device_slots_user_position_key`, each slot's fetches off
      // `subscription_fetches_slot_idx`.
      const mine = eq(deviceSlots.userId, userId);
      const ofSlot = eq(deviceSlots.id, subscriptionFetches.slotId);
      return {
        section,
        ...(await pageOf(
          db
            .select({
              id: subscriptionFetches.id,
              at: subscriptionFetches.at,
              ip: subscriptionFetches.ip,
              userAgent: subscriptionFetches.userAgent,
              format: subscriptionFetches.format,
              slotPosition: deviceSlots.position,
              slotName: deviceSlots.name,
            })
            .from(subscriptionFetches)
            .innerJoin(deviceSlots, ofSlot)
            .where(mine)
            .orderBy(desc(subscriptionFetches.at), desc(subscriptionFetches.id))
            .limit(page.limit)
            .offset(page.offset),
          db.select({ n: count() }).from(subscriptionFetches).innerJoin(deviceSlots, ofSlot).where(mine),
        )),
      };
    }
  }
}

/**
 * Disables an account (it can no longer sign in, and its calls answer `account_revoked`) or enables
 * it again, which also forgets an inactive-account warning.
 */
export async function setUserDisabled(tx: Database, userId: string, disabledAt: Date | null) {
  const [row] = await tx
    .update(users)
    .set(disabledAt ? { revokedAt: disabledAt } : { revokedAt: null, inactiveWarnedAt: null })
    .where(eq(users.id, userId))
    .returning();
  return row;
}
