import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomUUID, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { appStoreTransactions, expiryLedger, paymentEvents, users } from '../../db/schema/index.ts';
import { makeTestChain, signJws, type TestChain, unsignedJws } from '../../testing/apple-chain.ts';
import { signerOf, StoreSubscription, storeNotification } from '../../testing/apple-notifications.ts';
import { signedInUser, startTestApp, useTestApp } from '../../testing/test-app.ts';
import { createServerDatabase, testDatabaseKind } from '../../testing/test-database.ts';
import { fulfilPayment } from '../orders/fulfilment.ts';
import { createUser } from '../users/repository.ts';
import {
  createAppleApiClient,
  failureReason,
  parseHistoryArgs,
  recoverAppleNotifications,
} from './apple-history.ts';
import { AppleNotificationRefused, createAppleVerifier, verifyAppleNotification } from './apple-verify.ts';
import { fulfilDeps } from '../../testing/payments.ts';

const DAY = 86_400;
const BUNDLE_ID = 'com.example.skyway';
const MONTH_1 = `${BUNDLE_ID}.month.1`;
const MONTH_3 = `${BUNDLE_ID}.month.3`;
const YEAR_5 = `${BUNDLE_ID}.year.5`;
const PRODUCTS = `${MONTH_1}=month:1, ${MONTH_3}=month:3,${YEAR_5}=year:5`;
const serverDir = path.resolve(import.meta.dirname, '../../..');

const nowSeconds = () => Math.floor(Date.now() / 1000);

interface Info {
  expire_user: number;
  connections: number;
  subscribe_type: number;
  pending_connections: number | null;
  pending_from: number;
  auto_renew: boolean;
  app_account_token: string;
  app_store_expire: number;
}

let chain: TestChain;
let signer: ReturnType<typeof signerOf>;

function appleEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    APPLE_BUNDLE_ID: BUNDLE_ID,
    APPLE_ENVIRONMENT: 'Sandbox',
    APPLE_ROOT_CERTS: chain.rootPath,
    APPLE_PRODUCTS: PRODUCTS,
    APPLE_ONLINE_CHECKS: 'false',
    ...extra,
  };
}

/** A subscription of the account with this appAccountToken, in this app. */
const subscriptionOf = (token: string) => new StoreSubscription(BUNDLE_ID, token);

const notification = (
  type: string,
  subtype: string | undefined,
  parts: { transaction?: object; renewal?: object },
  data: object = {},
) => storeNotification(signer, { bundleId: BUNDLE_ID }, type, subtype, parts, data);

describe('App Store notifications', () => {
  beforeAll(() => {
    chain = makeTestChain();
    signer = signerOf(chain);
  });
  afterAll(() => chain.remove());
  const t = useTestApp(() => appleEnv());

  const deliver = (payload: object | string) =>
    t.app.inject({
      method: 'POST',
      url: '/web/pay/apple/notify',
      payload: { signedPayload: typeof payload === 'string' ? payload : signJws(payload, signer) },
    });

  async function send(payload: object | string) {
    const reply = await deliver(payload);
    expect(reply.statusCode, reply.body).toBe(200);
    return reply;
  }

  async function info(token: string): Promise<Info> {
    const reply = await t.app.inject({
      method: 'POST',
      url: '/web/user/info',
      payload: {},
      headers: { authorization: token },
    });
    return reply.json().data as Info;
  }

  async function subscriber() {
    const { user, token } = await signedInUser(t.database);
    const before = await info(token);
    expect(before.app_account_token).toBe(user.id);
    return { user, token, sub: subscriptionOf(before.app_account_token) };
  }

  const ledgerOf = (userId: string) =>
    t.database.db.select().from(expiryLedger).where(eq(expiryLedger.userId, userId));
  const appleEvents = async () =>
    (await t.database.db.select().from(paymentEvents).where(eq(paymentEvents.provider, 'apple'))).length;

  it('SUBSCRIBED starts the subscription: Apple’s expiry, the product’s connections, type 3', async () => {
    const { user, token, sub } = await subscriber();
    const now = nowSeconds();
    const expires = now + 31 * DAY;
    await send(
      notification('SUBSCRIBED', 'INITIAL_BUY', {
        transaction: sub.transaction(MONTH_3, now, expires),
        renewal: sub.renewal(MONTH_3),
      }),
    );
    expect(await info(token)).toMatchObject({
      expire_user: expires,
      connections: 3,
      subscribe_type: 3,
      auto_renew: true,
      pending_connections: null,
      app_store_expire: expires,
    });
    const ledger = await ledgerOf(user.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ reason: 'app_store', ref: sub.originalId, connections: 3 });
  });

  it('a card purchase by a subscriber adds time after the store’s period and keeps the type', async () => {
    const { token, sub } = await subscriber();
    const now = nowSeconds();
    const expires = now + 31 * DAY;
    await send(
      notification('SUBSCRIBED', 'INITIAL_BUY', {
        transaction: sub.transaction(MONTH_3, now, expires),
        renewal: sub.renewal(MONTH_3),
      }),
    );
    const created = await t.app.inject({
      method: 'POST',
      url: '/web/order/create',
      payload: { period: 'month', connections: 3 },
      headers: { authorization: token },
    });
    const order = created.json().data as { order_id: string; amount: number };
    const paid = { provider: 'sandbox', orderId: order.order_id, paymentId: `p_${order.order_id}` };
    expect(
      await fulfilPayment(fulfilDeps(t), { ...paid, amount: order.amount, currency: 'CNY' }, new Date()),
    ).toBe('credited');
    expect(await info(token)).toMatchObject({
      expire_user: expires + 31 * DAY,
      subscribe_type: 3,
      app_store_expire: expires,
    });
  });

  it('DID_RENEW adds the next period; the same transaction twice adds it once', async () => {
    const { user, token, sub } = await subscriber();
    const now = nowSeconds();
    const first = now + 31 * DAY;
    await send(
      notification('SUBSCRIBED', 'INITIAL_BUY', {
        transaction: sub.transaction(MONTH_1, now, first),
        renewal: sub.renewal(MONTH_1),
      }),
    );
    const renewal = sub.transaction(MONTH_1, first - 3600, first + 31 * DAY);
    await send(notification('DID_RENEW', undefined, { transaction: renewal, renewal: sub.renewal(MONTH_1) }));
    expect(await info(token)).toMatchObject({
      expire_user: first + 31 * DAY,
      connections: 1,
      subscribe_type: 3,
    });
    // Another notification (its own notificationUUID) carrying the same transaction gives nothing more.
    await send(notification('DID_RENEW', undefined, { transaction: renewal, renewal: sub.renewal(MONTH_1) }));
    expect((await info(token)).expire_user).toBe(first + 31 * DAY);
    expect(await ledgerOf(user.id)).toHaveLength(2);
  });

  it('DID_CHANGE_RENEWAL_STATUS turns auto-renew off and on without touching the time', async () => {
    const { token, sub } = await subscriber();
    const now = nowSeconds();
    const expires = now + 31 * DAY;
    const transaction = sub.transaction(MONTH_1, now, expires);
    await send(notification('SUBSCRIBED', 'INITIAL_BUY', { transaction, renewal: sub.renewal(MONTH_1) }));
    await send(
      notification('DID_CHANGE_RENEWAL_STATUS', 'AUTO_RENEW_DISABLED', {
        transaction,
        renewal: sub.renewal(MONTH_1, { autoRenewStatus: 0 }),
      }),
    );
    expect(await info(token)).toMatchObject({ auto_renew: false, expire_user: expires, connections: 1 });
    await send(
      notification('DID_CHANGE_RENEWAL_STATUS', 'AUTO_RENEW_ENABLED', {
        transaction,
        renewal: sub.renewal(MONTH_1),
      }),
    );
    expect(await info(token)).toMatchObject({ auto_renew: true, expire_user: expires, connections: 1 });
  });

  it('DID_CHANGE_RENEWAL_PREF UPGRADE applies at once: the new period at the new size', async () => {
    const { user, token, sub } = await subscriber();
    const now = nowSeconds();
    await send(
      notification('SUBSCRIBED', 'INITIAL_BUY', {
        transaction: sub.transaction(MONTH_1, now - 5 * DAY, now + 26 * DAY),
        renewal: sub.renewal(MONTH_1),
      }),
    );
    // Apple refunds the unused part of the month and starts the year now.
    const upgraded = sub.transaction(YEAR_5, now, now + 366 * DAY);
    await send(
      notification('DID_CHANGE_RENEWAL_PREF', 'UPGRADE', {
        transaction: upgraded,
        renewal: sub.renewal(YEAR_5),
      }),
    );
    expect(await info(token)).toMatchObject({
      expire_user: now + 366 * DAY,
      connections: 5,
      pending_connections: null,
      subscribe_type: 3,
    });
    const [old] = await t.database.db
      .select()
      .from(appStoreTransactions)
      .where(eq(appStoreTransactions.transactionId, sub.originalId));
    // What was used of the month stays given; what Apple refunded left with the upgrade.
    expect(old?.grantedSeconds).toBeLessThanOrEqual(2);
    expect((await ledgerOf(user.id)).map((row) => row.connections)).toEqual([1, 5]);
  });

  it('DOWNGRADE waits for the renewal; an empty subtype cancels it; the renewal applies it', async () => {
    const { token, sub } = await subscriber();
    const now = nowSeconds();
    const expires = now + 366 * DAY;
    const current = sub.transaction(YEAR_5, now, expires);
    await send(
      notification('SUBSCRIBED', 'INITIAL_BUY', { transaction: current, renewal: sub.renewal(YEAR_5) }),
    );
    const toMonth = sub.renewal(YEAR_5, { autoRenewProductId: MONTH_1 });
    await send(
      notification('DID_CHANGE_RENEWAL_PREF', 'DOWNGRADE', { transaction: current, renewal: toMonth }),
    );
    expect(await info(token)).toMatchObject({
      expire_user: expires,
      connections: 5,
      pending_connections: 1,
      pending_from: expires,
    });
    await send(
      notification('DID_CHANGE_RENEWAL_PREF', undefined, {
        transaction: current,
        renewal: sub.renewal(YEAR_5),
      }),
    );
    expect(await info(token)).toMatchObject({
      expire_user: expires,
      connections: 5,
      pending_connections: null,
    });

    await send(
      notification('DID_CHANGE_RENEWAL_PREF', 'DOWNGRADE', { transaction: current, renewal: toMonth }),
    );
    const renewed = sub.transaction(MONTH_1, expires - 3600, expires + 31 * DAY);
    await send(notification('DID_RENEW', undefined, { transaction: renewed, renewal: sub.renewal(MONTH_1) }));
    expect(await info(token)).toMatchObject({
      expire_user: expires + 31 * DAY,
      connections: 5,
      pending_connections: 1,
      pending_from: expires,
    });
  });

  it('refuses to grant the smaller plan of a DOWNGRADE at once, even when handed its transaction', async () => {
    const { user, token, sub } = await subscriber();
    const now = nowSeconds();
    const expires = now + 31 * DAY;
    await send(
      notification('SUBSCRIBED', 'INITIAL_BUY', {
        transaction: sub.transaction(MONTH_3, now, expires),
        renewal: sub.renewal(MONTH_3),
      }),
    );
    const before = await info(token);
    // A DOWNGRADE whose transaction is a new one of the smaller product, starting now.
    const smaller = sub.transaction(MONTH_1, now, now + 31 * DAY);
    await send(
      notification('DID_CHANGE_RENEWAL_PREF', 'DOWNGRADE', {
        transaction: smaller,
        renewal: sub.renewal(MONTH_3, { autoRenewProductId: MONTH_1 }),
      }),
    );
    // Connections and expiry as they were; the smaller size only from the end of the paid period.
    expect(await info(token)).toMatchObject({
      expire_user: before.expire_user,
      connections: 3,
      pending_connections: 1,
      pending_from: before.expire_user,
    });
    expect(
      await t.database.db
        .select()
        .from(appStoreTransactions)
        .where(eq(appStoreTransactions.transactionId, smaller.transactionId)),
    ).toHaveLength(0);
    expect((await ledgerOf(user.id)).map((row) => row.seconds)).toEqual([expect.any(Number), 0]);
    // Its renewal, when it comes, is what gives the smaller plan its time.
    await send(
      notification('DID_RENEW', undefined, {
        transaction: {
          ...smaller,
          purchaseDate: (expires - 60) * 1000,
          expiresDate: (expires + 31 * DAY) * 1000,
        },
      }),
    );
    expect(await info(token)).toMatchObject({
      expire_user: expires + 31 * DAY,
      connections: 3,
      pending_connections: 1,
    });
  });

  it('DID_FAIL_TO_RENEW keeps access through the grace period; GRACE_PERIOD_EXPIRED ends it at the expiry', async () => {
    const { token, sub } = await subscriber();
    const now = nowSeconds();
    const expires = now + 2 * DAY;
    const transaction = sub.transaction(MONTH_1, now - 29 * DAY, expires);
    await send(notification('SUBSCRIBED', 'INITIAL_BUY', { transaction, renewal: sub.renewal(MONTH_1) }));
    // A billing problem without a grace period: nothing more, auto-renew as the renewal info says.
    await send(
      notification('DID_FAIL_TO_RENEW', undefined, {
        transaction,
        renewal: sub.renewal(MONTH_1, { isInBillingRetryPeriod: true }),
      }),
    );
    expect(await info(token)).toMatchObject({ expire_user: expires, auto_renew: true });
    const graceEnd = expires + 16 * DAY;
    await send(
      notification('DID_FAIL_TO_RENEW', 'GRACE_PERIOD', {
        transaction,
        renewal: sub.renewal(MONTH_1, {
          isInBillingRetryPeriod: true,
          gracePeriodExpiresDate: graceEnd * 1000,
        }),
      }),
    );
    expect(await info(token)).toMatchObject({ expire_user: graceEnd, connections: 1, auto_renew: true });
    await send(
      notification('GRACE_PERIOD_EXPIRED', undefined, {
        transaction,
        renewal: sub.renewal(MONTH_1, { isInBillingRetryPeriod: true }),
      }),
    );
    expect(await info(token)).toMatchObject({ expire_user: expires, auto_renew: false });

    // Billing recovered: the renewal's period from Apple's new expiry.
    const recovered = sub.transaction(MONTH_1, now, expires + 31 * DAY);
    await send(
      notification('DID_RENEW', 'BILLING_RECOVERY', {
        transaction: recovered,
        renewal: sub.renewal(MONTH_1),
      }),
    );
    expect(await info(token)).toMatchObject({ expire_user: expires + 31 * DAY, auto_renew: true });
  });

  it('EXPIRED turns auto-renew off and grants nothing', async () => {
    const { user, token, sub } = await subscriber();
    const now = nowSeconds();
    const transaction = sub.transaction(MONTH_1, now - 31 * DAY, now - 60);
    await send(notification('SUBSCRIBED', 'INITIAL_BUY', { transaction, renewal: sub.renewal(MONTH_1) }));
    // Late news of a period already over: recorded, no time.
    expect(await info(token)).toMatchObject({ expire_user: 0, subscribe_type: 1, auto_renew: true });
    await send(
      notification('EXPIRED', 'VOLUNTARY', {
        transaction,
        renewal: sub.renewal(MONTH_1, { autoRenewStatus: 0, expirationIntent: 1 }),
      }),
    );
    expect(await info(token)).toMatchObject({ expire_user: 0, auto_renew: false });
    expect(await ledgerOf(user.id)).toHaveLength(0);

    const { token: active, sub: running } = await subscriber();
    const expires = now + 10 * DAY;
    const current = running.transaction(MONTH_3, now - 21 * DAY, expires);
    await send(
      notification('SUBSCRIBED', 'INITIAL_BUY', { transaction: current, renewal: running.renewal(MONTH_3) }),
    );
    await send(
      notification('EXPIRED', 'VOLUNTARY', {
        transaction: current,
        renewal: running.renewal(MONTH_3, { autoRenewStatus: 0 }),
      }),
    );
    expect(await info(active)).toMatchObject({ expire_user: expires, connections: 3, auto_renew: false });
  });

  /** A month bought, then renewed once: `first` is where the first month ends. */
  async function subscribedAndRenewed() {
    const subscribed = await subscriber();
    const { sub } = subscribed;
    const first = nowSeconds() + 31 * DAY;
    const initial = sub.transaction(MONTH_1, nowSeconds(), first);
    await send(
      notification('SUBSCRIBED', 'INITIAL_BUY', { transaction: initial, renewal: sub.renewal(MONTH_1) }),
    );
    const renewal = sub.transaction(MONTH_1, first - 3600, first + 31 * DAY);
    await send(notification('DID_RENEW', undefined, { transaction: renewal, renewal: sub.renewal(MONTH_1) }));
    return { ...subscribed, first, initial, renewal };
  }

  it('REFUND and REVOKE take the refunded time back; REFUND_REVERSED gives it back', async () => {
    const { user, token, sub, first, initial, renewal } = await subscribedAndRenewed();

    const refunded = {
      ...renewal,
      revocationDate: Date.now(),
      revocationReason: 0,
      revocationType: 'REFUND_FULL',
    };
    await send(notification('REFUND', undefined, { transaction: refunded, renewal: sub.renewal(MONTH_1) }));
    expect(await info(token)).toMatchObject({ expire_user: first, connections: 1 });
    // A second REFUND of the same transaction (another notification) takes nothing more.
    await send(notification('REFUND', undefined, { transaction: refunded, renewal: sub.renewal(MONTH_1) }));
    expect((await info(token)).expire_user).toBe(first);

    await send(
      notification('REFUND_REVERSED', undefined, { transaction: renewal, renewal: sub.renewal(MONTH_1) }),
    );
    expect((await info(token)).expire_user).toBe(first + 31 * DAY);

    // Revoking the first month takes its whole month back, not below now.
    const revoked = {
      ...initial,
      revocationDate: Date.now(),
      revocationReason: 0,
      revocationType: 'FAMILY_REVOKE',
    };
    await send(notification('REVOKE', undefined, { transaction: revoked, renewal: sub.renewal(MONTH_1) }));
    const left = (await info(token)).expire_user - nowSeconds();
    expect(left).toBeGreaterThan(31 * DAY - 10);
    expect(left).toBeLessThanOrEqual(31 * DAY);

    const reasons = (await ledgerOf(user.id)).map((row) => row.reason).sort();
    expect(reasons).toEqual(['app_store', 'app_store', 'app_store', 'app_store_refund', 'app_store_refund']);
  });

  it('shows the store period of the latest transaction not refunded or revoked, or none', async () => {
    const { token, first, initial, renewal } = await subscribedAndRenewed();
    expect((await info(token)).app_store_expire).toBe(first + 31 * DAY);

    const revoked = (transaction: object) => ({
      ...transaction,
      revocationDate: Date.now(),
      revocationReason: 0,
      revocationType: 'REFUND_FULL',
    });
    await send(notification('REFUND', undefined, { transaction: revoked(renewal) }));
    expect(await info(token)).toMatchObject({ app_store_expire: first, expire_user: first });
    await send(notification('REVOKE', undefined, { transaction: revoked(initial) }));
    expect((await info(token)).app_store_expire).toBe(0);
    await send(notification('REFUND_REVERSED', undefined, { transaction: renewal }));
    expect((await info(token)).app_store_expire).toBe(first + 31 * DAY);
  });

  it('lets the notification Apple signed last set the renewal state, whatever order they arrive in', async () => {
    const { user, token, sub } = await subscriber();
    const now = nowSeconds();
    const expires = now + 366 * DAY;
    const current = sub.transaction(YEAR_5, now, expires);
    const signedAt = Date.now();
    const signed = (seconds: number, payload: ReturnType<typeof notification>) => ({
      ...payload,
      signedDate: signedAt + seconds * 1000,
    });
    const renewalStatus = (seconds: number, on: boolean) =>
      signed(
        seconds,
        notification('DID_CHANGE_RENEWAL_STATUS', on ? 'AUTO_RENEW_ENABLED' : 'AUTO_RENEW_DISABLED', {
          transaction: current,
          renewal: sub.renewal(YEAR_5, { autoRenewStatus: on ? 1 : 0 }),
        }),
      );
    const downgrade = (seconds: number, productId: string) =>
      signed(
        seconds,
        notification('DID_CHANGE_RENEWAL_PREF', 'DOWNGRADE', {
          transaction: current,
          renewal: sub.renewal(YEAR_5, { autoRenewProductId: productId }),
        }),
      );
    const keepProduct = (seconds: number) =>
      signed(
        seconds,
        notification('DID_CHANGE_RENEWAL_PREF', undefined, {
          transaction: current,
          renewal: sub.renewal(YEAR_5),
        }),
      );

    // The purchase's first delivery failed; the user turned auto-renew off; then Apple's retry of
    // the purchase arrives. Its time counts, its renewal state is older than the user's choice.
    await send(renewalStatus(2, false));
    await send(
      signed(
        1,
        notification('SUBSCRIBED', 'INITIAL_BUY', { transaction: current, renewal: sub.renewal(YEAR_5) }),
      ),
    );
    expect(await info(token)).toMatchObject({
      auto_renew: false,
      expire_user: expires,
      connections: 5,
      app_store_expire: expires,
    });

    // On again, then a downgrade; a late "back to the current product" and a late "off" change nothing.
    await send(renewalStatus(3, true));
    await send(downgrade(5, MONTH_1));
    await send(keepProduct(4));
    await send(renewalStatus(2, false));
    expect(await info(token)).toMatchObject({
      auto_renew: true,
      expire_user: expires,
      connections: 5,
      pending_connections: 1,
      pending_from: expires,
    });
    // A newer notification still changes it.
    await send(renewalStatus(6, false));
    expect((await info(token)).auto_renew).toBe(false);
    expect(await ledgerOf(user.id)).toHaveLength(2);

    // Back to the current product: a downgrade signed before it and delivered after it schedules nothing.
    await send(keepProduct(8));
    await send(downgrade(7, MONTH_3));
    expect(await info(token)).toMatchObject({ connections: 5, pending_connections: null });
  });

  it('a refund of everything ends access now, and a transaction known first by its refund never gives time', async () => {
    const { token, sub } = await subscriber();
    const now = nowSeconds();
    const transaction = sub.transaction(MONTH_1, now - 10 * DAY, now + 21 * DAY);
    await send(notification('SUBSCRIBED', 'INITIAL_BUY', { transaction, renewal: sub.renewal(MONTH_1) }));
    await send(
      notification('REFUND', undefined, {
        transaction: { ...transaction, revocationDate: Date.now(), revocationReason: 1 },
      }),
    );
    const ended = await info(token);
    expect(ended.expire_user).toBeGreaterThanOrEqual(now);
    expect(ended.expire_user).toBeLessThanOrEqual(nowSeconds());

    const { token: other, sub: late } = await subscriber();
    const unseen = late.transaction(MONTH_3, now, now + 31 * DAY);
    await send(
      notification('REFUND', undefined, {
        transaction: { ...unseen, revocationDate: Date.now(), revocationReason: 0 },
      }),
    );
    await send(
      notification('SUBSCRIBED', 'INITIAL_BUY', { transaction: unseen, renewal: late.renewal(MONTH_3) }),
    );
    expect(await info(other)).toMatchObject({ expire_user: 0, subscribe_type: 1 });
  });

  it('adds app-store time after time bought otherwise, at the larger size', async () => {
    const { user, token, sub } = await subscriber();
    const now = nowSeconds();
    await t.database.db
      .update(users)
      .set({ expireAt: new Date((now + 10 * DAY) * 1000), connections: 2, subscribeType: 2 })
      .where(eq(users.id, user.id));
    await send(
      notification('SUBSCRIBED', 'INITIAL_BUY', {
        transaction: sub.transaction(MONTH_3, now, now + 31 * DAY),
        renewal: sub.renewal(MONTH_3),
      }),
    );
    const after = await info(token);
    // 10 days at 2 connections become 6⅔ days at 3, then Apple's month: as a card upgrade would.
    const expected = now + Math.floor((10 * DAY * 2) / 3) + 31 * DAY;
    expect(Math.abs(after.expire_user - expected)).toBeLessThanOrEqual(3);
    expect(after).toMatchObject({ connections: 3, subscribe_type: 3 });
  });

  it('TEST is verified and acknowledged, and changes nothing', async () => {
    const events = await appleEvents();
    const payload = {
      notificationType: 'TEST',
      notificationUUID: randomUUID(),
      version: '2.0',
      signedDate: Date.now(),
      data: { bundleId: BUNDLE_ID, environment: 'Sandbox' },
    };
    expect((await send(payload)).json()).toMatchObject({ code: 200 });
    expect(await appleEvents()).toBe(events + 1);
  });

  it('acknowledges a notification for no known account without changing anything', async () => {
    const stranger = subscriptionOf(randomUUID());
    const now = nowSeconds();
    const events = await appleEvents();
    await send(
      notification('SUBSCRIBED', 'INITIAL_BUY', {
        transaction: stranger.transaction(MONTH_1, now, now + 31 * DAY),
        renewal: stranger.renewal(MONTH_1),
      }),
    );
    expect(await appleEvents()).toBe(events + 1);
  });

  it('answers 500 for a product it does not know, recording nothing so Apple retries', async () => {
    const { token, sub } = await subscriber();
    const now = nowSeconds();
    const events = await appleEvents();
    const reply = await deliver(
      notification('SUBSCRIBED', 'INITIAL_BUY', {
        transaction: sub.transaction(`${BUNDLE_ID}.lifetime`, now, now + 31 * DAY),
      }),
    );
    expect(reply.statusCode).toBe(500);
    expect(await appleEvents()).toBe(events);
    expect((await info(token)).expire_user).toBe(0);
  });

  describe('refuses, changing nothing', () => {
    it('a duplicate notificationUUID', async () => {
      const { user, token, sub } = await subscriber();
      const now = nowSeconds();
      const subscribed = notification('SUBSCRIBED', 'INITIAL_BUY', {
        transaction: sub.transaction(MONTH_1, now, now + 31 * DAY),
      });
      await send(subscribed);
      const before = await info(token);
      const events = await appleEvents();
      // The very same delivery again, and another payload reusing its notificationUUID.
      await send(subscribed);
      const renew = notification('DID_RENEW', undefined, {
        transaction: sub.transaction(MONTH_1, now, now + 62 * DAY),
      });
      await send({ ...renew, notificationUUID: subscribed.notificationUUID });
      expect(await info(token)).toEqual(before);
      expect(await appleEvents()).toBe(events);
      expect(await ledgerOf(user.id)).toHaveLength(1);
    });

    it('unsigned, self-signed, two-certificate, wrong bundle id or wrong environment payloads', async () => {
      const { user, token, sub } = await subscriber();
      const now = nowSeconds();
      const transaction = sub.transaction(MONTH_3, now, now + 31 * DAY);
      const good = notification('SUBSCRIBED', 'INITIAL_BUY', { transaction, renewal: sub.renewal(MONTH_3) });
      const before = await info(token);
      const events = await appleEvents();
      const signedBy = (key: { x5c: string[]; key: TestChain['leafKey'] }) => signJws(good, key);
      const refused: [string, string][] = [
        ['unsigned', unsignedJws(good)],
        ['no signedDate', signJws({ ...good, signedDate: undefined }, signer)],
        ['not a JWS at all', 'hello'],
        ['self-signed chain', signedBy(chain.selfSigned)],
        ['two-certificate chain', signedBy({ x5c: chain.x5c.slice(0, 2), key: chain.leafKey })],
        ['leaf key not the signer', signedBy({ x5c: chain.x5c, key: chain.selfSigned.key })],
        [
          'wrong bundle id',
          signJws({ ...good, data: { ...good.data, bundleId: 'com.example.other' } }, signer),
        ],
        [
          'wrong environment',
          signJws({ ...good, data: { ...good.data, environment: 'Production' } }, signer),
        ],
        [
          'transaction of another app',
          signJws(
            notification('SUBSCRIBED', 'INITIAL_BUY', {
              transaction: { ...transaction, bundleId: 'com.example.other' },
            }),
            signer,
          ),
        ],
        [
          'transaction of another environment',
          signJws(
            notification('SUBSCRIBED', 'INITIAL_BUY', {
              transaction: { ...transaction, environment: 'Production' },
            }),
            signer,
          ),
        ],
        [
          'transaction signed outside the chain',
          signJws(
            {
              ...good,
              data: { ...good.data, signedTransactionInfo: signJws(transaction, chain.selfSigned) },
            },
            signer,
          ),
        ],
      ];
      for (const [name, signedPayload] of refused) {
        const reply = await deliver(signedPayload);
        expect(reply.statusCode, name).toBe(400);
        expect(reply.json(), name).toMatchObject({
          code: 400,
          data: { reason: 'app_store_notification_invalid' },
        });
      }
      const missing = await t.app.inject({ method: 'POST', url: '/web/pay/apple/notify', payload: {} });
      expect(missing.json()).toMatchObject({ code: 400, data: { field: 'signedPayload' } });
      expect(await info(token)).toEqual(before);
      expect(await appleEvents()).toBe(events);
      expect(await ledgerOf(user.id)).toHaveLength(0);
      // The same notification, properly signed, goes through.
      await send(good);
      expect((await info(token)).connections).toBe(3);
    });
  });

  it.runIf(testDatabaseKind === 'postgres')(
    'applies the same notification delivered 10 times at once exactly once',
    async () => {
      const { user, token, sub } = await subscriber();
      const now = nowSeconds();
      const expires = now + 31 * DAY;
      const payload = signJws(
        notification('SUBSCRIBED', 'INITIAL_BUY', {
          transaction: sub.transaction(MONTH_3, now, expires),
          renewal: sub.renewal(MONTH_3),
        }),
        signer,
      );
      const replies = await Promise.all(Array.from({ length: 10 }, () => deliver(payload)));
      expect(replies.map((reply) => reply.statusCode)).toEqual(Array(10).fill(200));
      expect(await info(token)).toMatchObject({ expire_user: expires, connections: 3 });
      expect(await ledgerOf(user.id)).toHaveLength(1);
      // And two notifications carrying one transaction, at once: one credit.
      const renewal = sub.transaction(MONTH_3, expires - 60, expires + 31 * DAY);
      const twins = [1, 2, 3, 4, 5].map(() =>
        signJws(notification('DID_RENEW', undefined, { transaction: renewal }), signer),
      );
      await Promise.all(twins.map((twin) => deliver(twin)));
      expect((await info(token)).expire_user).toBe(expires + 31 * DAY);
      expect(await ledgerOf(user.id)).toHaveLength(2);
    },
  );

  describe('notification history', () => {
    let server: Server;
    let baseUrl: string;
    let pages: { signedPayload: string }[][] = [];
    /** When set, Apple's answer to every history request: a status and its JSON body, if any. */
    let failure: { status: number; body?: object } | undefined;
    const requests: { authorization: string; body: Record<string, unknown>; token: string | null }[] = [];
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    let keyDir: string;

    beforeAll(async () => {
      keyDir = mkdtempSync(path.join(tmpdir(), 'skyway-apple-key-'));
      writeFileSync(path.join(keyDir, 'AuthKey.p8'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
      server = createServer((request, response) => {
        let raw = '';
        request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        request.on('end', () => {
          const url = new URL(request.url ?? '/', 'http://apple');
          if (request.method !== 'POST' || url.pathname !== '/inApps/v1/notifications/history') {
            response.writeHead(404, { 'content-type': 'application/json' }).end('{"errorCode":4040000}');
            return;
          }
          if (failure) {
            response
              .writeHead(failure.status, { 'content-type': 'application/json' })
              .end(failure.body ? JSON.stringify(failure.body) : '');
            return;
          }
          const token = url.searchParams.get('paginationToken');
          requests.push({ authorization: request.headers.authorization ?? '', body: JSON.parse(raw), token });
          const index = token ? Number(token) : 0;
          const more = index + 1 < pages.length;
          response.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              notificationHistory: (pages[index] ?? []).map((item) => ({
                ...item,
                sendAttempts: [{ attemptDate: Date.now(), sendAttemptResult: 'TIMED_OUT' }],
              })),
              hasMore: more,
              ...(more ? { paginationToken: String(index + 1) } : {}),
            }),
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(keyDir, { recursive: true, force: true });
    });

    const historyEnv = () =>
      appleEnv({
        APPLE_ISSUER_ID: '57246542-96fe-1a63-e053-0824d011072a',
        APPLE_KEY_ID: 'ABCDEFGHIJ',
        APPLE_PRIVATE_KEY_PATH: path.join(keyDir, 'AuthKey.p8'),
        APPLE_API_URL: baseUrl,
      });

    function checkBearer(authorization: string) {
      const [header = '', payload = '', signature = ''] = authorization.replace(/^Bearer /, '').split('.');
      const valid = verify(
        'sha256',
        Buffer.from(`${header}.${payload}`),
        { key: publicKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      );
      expect(valid).toBe(true);
      expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({
        alg: 'ES256',
        kid: 'ABCDEFGHIJ',
      });
      expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({
        iss: '57246542-96fe-1a63-e053-0824d011072a',
        aud: 'appstoreconnect-v1',
        bid: BUNDLE_ID,
      });
    }

    it('recovers missed notifications page by page; those handled before change nothing', async () => {
      const { token, sub } = await subscriber();
      const now = nowSeconds();
      const first = now + 31 * DAY;
      const delivered = notification('SUBSCRIBED', 'INITIAL_BUY', {
        transaction: sub.transaction(MONTH_1, now, first),
        renewal: sub.renewal(MONTH_1),
      });
      await send(delivered);
      const missed = notification('DID_RENEW', undefined, {
        transaction: sub.transaction(MONTH_1, first - 60, first + 31 * DAY),
        renewal: sub.renewal(MONTH_1),
      });
      pages = [
        [{ signedPayload: signJws(delivered, signer) }, { signedPayload: unsignedJws(missed) }],
        [{ signedPayload: signJws(missed, signer) }],
      ];
      requests.length = 0;
      const config = loadConfig({ NODE_ENV: 'test', ...historyEnv() });
      const apple = config.payments.apple;
      if (!apple) throw new Error('apple config expected');
      const handler = {
        db: t.database.db,
        verifier: createAppleVerifier(apple, 'test'),
        products: apple.products,
      };
      const since = new Date(Date.now() - DAY * 1000);
      const until = new Date();
      const summary = await recoverAppleNotifications(createAppleApiClient(apple), handler, { since, until });
      expect(summary).toEqual({
        seen: 3,
        outcomes: { applied: 1, unchanged: 0, duplicate: 1, no_account: 0, refused: 1 },
      });
      expect((await info(token)).expire_user).toBe(first + 31 * DAY);
      expect(requests.map((request) => request.token)).toEqual([null, '1']);
      expect(requests[0]?.body).toEqual({ startDate: since.getTime(), endDate: until.getTime() });
      checkBearer(requests[0]?.authorization ?? '');

      const again = await recoverAppleNotifications(createAppleApiClient(apple), handler, { since, until });
      expect(again.outcomes).toMatchObject({ applied: 0, duplicate: 2, refused: 1 });
      expect((await info(token)).expire_user).toBe(first + 31 * DAY);
    });

    it('says why Apple refused a request, from its status, error code and message', async () => {
      const apple = loadConfig({ NODE_ENV: 'test', ...historyEnv() }).payments.apple;
      if (!apple) throw new Error('apple config expected');
      const handler = {
        db: t.database.db,
        verifier: createAppleVerifier(apple, 'test'),
        products: apple.products,
      };
      const range = { since: new Date(Date.now() - DAY * 1000), until: new Date() };
      const refusal = async () => {
        try {
          await recoverAppleNotifications(createAppleApiClient(apple), handler, range);
        } catch (error) {
          return failureReason(error);
        }
        throw new Error('the recovery did not fail');
      };
      try {
        failure = {
          status: 400,
          body: { errorCode: 4000012, errorMessage: 'Start date is too far in the past.' },
        };
        expect(await refusal()).toBe(
          'the App Store Server API answered HTTP 400 START_DATE_TOO_FAR_IN_PAST (4000012): Start date is too far in the past.',
        );
        failure = { status: 401 };
        expect(await refusal()).toMatch(
          /^the App Store Server API answered HTTP 401 \(the key was refused: check APPLE_ISSUER_ID/,
        );
      } finally {
        failure = undefined;
      }
    });

    it('runs as a command on the configured database', async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'skyway-apple-db-'));
      const server = testDatabaseKind === 'postgres' ? await createServerDatabase() : undefined;
      const databaseEnv: Record<string, string> = server
        ? { DATABASE_URL: server.url }
        : { DATA_DIR: dataDir };
      const open = () => openDatabase({ databaseUrl: server?.url, dataDir });
      try {
        const setup = await open();
        await setup.migrate();
        const user = await createUser(setup.db, { email: 'history@example.com' });
        await setup.close();

        const sub = subscriptionOf(user.id);
        const now = nowSeconds();
        pages = [
          [
            {
              signedPayload: signJws(
                notification('SUBSCRIBED', 'RESUBSCRIBE', {
                  transaction: sub.transaction(YEAR_5, now, now + 366 * DAY),
                  renewal: sub.renewal(YEAR_5),
                }),
                signer,
              ),
            },
          ],
        ];
        const env: Record<string, string> = {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          NODE_ENV: 'test',
          // A server key the command does not read: the server would refuse it without Stripe's keys.
          PAYMENT_PROVIDER: 'stripe',
          ...databaseEnv,
          ...historyEnv(),
        };
        const run = (args: string[]) =>
          promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/apple-history.ts', ...args], {
            cwd: serverDir,
            env,
          });
        const { stdout } = await run(['--since', String(now - 3600)]);
        expect(stdout).toContain('applied=1');

        const check = await open();
        const [row] = await check.db.select().from(users).where(eq(users.id, user.id));
        await check.close();
        expect(row).toMatchObject({ connections: 5, subscribeType: 3, autoRenew: true });
        expect(Math.floor((row?.expireAt?.getTime() ?? 0) / 1000)).toBe(now + 366 * DAY);

        // Apple refuses the key: the command stops with Apple's reason, not an empty message.
        failure = { status: 401 };
        const refused = await run([]).then(
          () => undefined,
          (error: unknown) => error as { code: number; stderr: string },
        );
        expect(refused?.code).toBe(1);
        expect(refused?.stderr).toContain('stopped: the App Store Server API answered HTTP 401');
      } finally {
        failure = undefined;
        await server?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 60_000);
  });

  it('keeps the notify route out of the per-address call ceiling, and other calls in it', async () => {
    const limited = await startTestApp(appleEnv({ RATE_LIMIT_PER_MINUTE: '3' }));
    try {
      const address = '17.58.0.1';
      const replies = [];
      for (let i = 0; i < 20; i++) {
        const reply = await limited.app.inject({
          method: 'POST',
          url: '/web/pay/apple/notify',
          payload: {
            signedPayload: signJws(
              {
                notificationType: 'TEST',
                notificationUUID: randomUUID(),
                signedDate: Date.now(),
                data: { bundleId: BUNDLE_ID, environment: 'Sandbox' },
              },
              signer,
            ),
          },
          remoteAddress: address,
        });
        replies.push(reply.statusCode);
      }
      expect(replies).toEqual(Array(20).fill(200));
      const calls = [];
      for (let i = 0; i < 4; i++) {
        const reply = await limited.app.inject({
          method: 'POST',
          url: '/web/plan/list',
          payload: {},
          remoteAddress: address,
        });
        calls.push(reply.statusCode);
      }
      expect(calls).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  it('is off when APPLE_BUNDLE_ID is unset', async () => {
    const plain = await startTestApp();
    try {
      const reply = await plain.app.inject({
        method: 'POST',
        url: '/web/pay/apple/notify',
        payload: { signedPayload: 'x' },
      });
      expect(reply.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('App Store verification', () => {
  beforeAll(() => {
    chain = makeTestChain();
    signer = signerOf(chain);
  });
  afterAll(() => chain.remove());

  it('checks the app id in Production, and never builds an unsigned verifier in production', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      ...appleEnv({
        APPLE_ENVIRONMENT: 'Production',
        APPLE_APP_ID: '1234567890',
        APPLE_ROOT_CERTS: chain.rootPemPath,
      }),
    });
    const apple = config.payments.apple;
    if (!apple) throw new Error('apple config expected');
    const verifier = createAppleVerifier(apple, 'test');
    const payload = (appAppleId: number) => ({
      notificationType: 'TEST',
      notificationUUID: randomUUID(),
      signedDate: Date.now(),
      data: { bundleId: BUNDLE_ID, environment: 'Production', appAppleId },
    });
    await expect(
      verifyAppleNotification(verifier, signJws(payload(1234567890), signer)),
    ).resolves.toMatchObject({
      type: 'TEST',
    });
    await expect(verifyAppleNotification(verifier, signJws(payload(42), signer))).rejects.toBeInstanceOf(
      AppleNotificationRefused,
    );
    for (const environment of ['LocalTesting', 'Xcode'] as const) {
      expect(() => createAppleVerifier({ ...apple, environment }, 'production')).toThrow(
        /refused in production/,
      );
    }
  });

  it('reads the history command’s range', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    expect(parseHistoryArgs([], now)).toEqual({
      since: new Date('2026-05-31T12:00:00Z'),
      until: now,
      onlyFailures: false,
    });
    expect(parseHistoryArgs(['--since', '2026-05-01', '--until=1780000000', '--only-failures'], now)).toEqual(
      {
        since: new Date('2026-05-01T00:00:00Z'),
        until: new Date(1_780_000_000_000),
        onlyFailures: true,
      },
    );
    expect(() => parseHistoryArgs(['--since', '2026-06-02'], now)).toThrow(/before/);
    expect(() => parseHistoryArgs(['--from', '1'], now)).toThrow();
  });
});
