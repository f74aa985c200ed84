import type { SignedDataVerifier } from '@apple/app-store-server-library';
import type { SubscribeType } from '@skyway/shared/user';
import type { AppleProduct } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { inAccountTransaction } from '../access/access.ts';
import {
  lockSubscription,
  lockTransaction,
  saveStoreChange,
  subscriptionOwner,
} from '../access/app-store-repository.ts';
import {
  applyStoreNotice,
  productOf,
  productsNeeded,
  type StoreNotice,
  type StoreTransaction,
} from '../access/app-store-rules.ts';
import { recordPaymentEvent } from '../payment-events/repository.ts';
import { userExists } from '../users/repository.ts';
import { type AppleNotice, verifyAppleNotification } from './apple-verify.ts';

export const APPLE_PROVIDER = 'apple';

/**
 * - `applied`: the account changed (time, connections, a scheduled downgrade or the renewal status);
 * - `unchanged`: verified and recorded, nothing to change (a transaction seen before, a TEST, …);
 * - `duplicate`: this notificationUUID was handled before; nothing changed;
 * - `no_account`: no account matches the subscription or its appAccountToken (recorded, logged).
 */
export type AppleOutcome = 'applied' | 'unchanged' | 'duplicate' | 'no_account';

export interface AppleHandler {
  db: Database;
  verifier: SignedDataVerifier;
  products: Record<string, AppleProduct>;
}

export interface AppleResult {
  outcome: AppleOutcome;
  notificationUUID: string;
  type: string;
  subtype: string | undefined;
  userId?: string;
  transactionId?: string;
}

/** Verifies a `signedPayload` and applies it: the one path of the notify route and the history command. */
export async function processAppleNotification(
  handler: AppleHandler,
  signedPayload: string,
  now: Date,
): Promise<AppleResult> {
  const notice = await verifyAppleNotification(handler.verifier, signedPayload);
  return applyAppleNotice(handler.db, handler.products, notice, now);
}

const seconds = (milliseconds: number | undefined) => (milliseconds ? Math.floor(milliseconds / 1000) : 0);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The notification's transaction in the rules' terms (verification made sure it has its ids). */
function storeTransaction(notice: AppleNotice): StoreTransaction | undefined {
  const t = notice.transaction;
  if (!t?.transactionId || !t.originalTransactionId || !t.productId) return undefined;
  return {
    id: t.transactionId,
    originalId: t.originalTransactionId,
    productId: t.productId,
    purchasedAt: seconds(t.purchaseDate),
    expiresAt: seconds(t.expiresDate),
    revokedAt: seconds(t.revocationDate),
    refundedShare: t.revocationType === 'REFUND_PRORATED' ? t.revocationPercentage : undefined,
  };
}

function storeNotice(notice: AppleNotice): StoreNotice {
  const renewal = notice.renewal;
  return {
    type: notice.type,
    subtype: notice.subtype,
    signedDate: notice.signedDate,
    renewal: renewal && {
      autoRenewStatus: renewal.autoRenewStatus,
      autoRenewProductId: renewal.autoRenewProductId,
      gracePeriodEndsAt: seconds(renewal.gracePeriodExpiresDate),
    },
  };
}

/** The account a notification is about: the subscription's, else the one its appAccountToken names. */
async function findOwner(
  db: Database,
  notice: AppleNotice,
  t: StoreTransaction,
): Promise<string | undefined> {
  const owner = await subscriptionOwner(db, t.originalId);
  if (owner) return owner;
  for (const token of [notice.transaction?.appAccountToken, notice.renewal?.appAccountToken]) {
    if (token && UUID.test(token) && (await userExists(db, token.toLowerCase()))) return token.toLowerCase();
  }
  return undefined;
}

/**
 * Applies one verified notification, once. Under the account's lock (access.ts gives the order) it
 * records the notificationUUID (payment_events, provider `apple`: a repeated or concurrent delivery
 * stops there), locks the subscription and the transaction, works out the change by the App Store
 * rules (access/app-store-rules.ts) and saves it: the account's access with its ledger row, the
 * subscription, each transaction id once.
 */
export async function applyAppleNotice(
  db: Database,
  products: Record<string, AppleProduct>,
  notice: AppleNotice,
  now: Date,
): Promise<AppleResult> {
  const result = (outcome: AppleOutcome, extra: Partial<AppleResult> = {}): AppleResult => ({
    outcome,
    notificationUUID: notice.notificationUUID,
    type: notice.type,
    subtype: notice.subtype,
    ...extra,
  });
  const event = {
    id: notice.notificationUUID,
    type: notice.subtype ? `${notice.type}/${notice.subtype}` : notice.type,
  };
  const t = notice.type === 'TEST' ? undefined : storeTransaction(notice);
  const ownerId = t ? await findOwner(db, notice, t) : undefined;
  if (!t || !ownerId) {
    const fresh = await recordPaymentEvent(db, APPLE_PROVIDER, event, null, now);
    if (!fresh) return result('duplicate');
    return t ? result('no_account', { transactionId: t.id }) : result('unchanged');
  }
  const store = storeNotice(notice);
  // Every product this notification needs must be known before anything is recorded.
  for (const productId of productsNeeded(store, t)) productOf(products, productId);

  return inAccountTransaction(db, ownerId, now, async (account) => {
    const { tx, user } = account;
    if (!(await recordPaymentEvent(tx, APPLE_PROVIDER, event, null, now))) return result('duplicate');
    const subscription = await lockSubscription(tx, user.id, t, {
      connections: productOf(products, t.productId).connections,
      autoRenew: notice.renewal?.autoRenewStatus !== 0,
      environment: notice.environment ?? 'unknown',
      now,
    });
    const transaction = await lockTransaction(tx, t.id);
    const change = applyStoreNotice(
      {
        entitlement: account.entitlement,
        autoRenew: user.autoRenew,
        subscribeType: user.subscribeType as SubscribeType,
        subscription,
        transaction,
      },
      store,
      t,
      products,
      account.nowSeconds,
    );
    if (change.accountChanged) {
      await account.change({
        reason: change.reason,
        ref: t.id,
        after: change.entitlement,
        subscribeType: change.subscribeType,
        autoRenew: change.autoRenew,
      });
    }
    await saveStoreChange(
      tx,
      { originalTransactionId: t.originalId, userId: user.id, notificationId: notice.notificationUUID, now },
      change.subscription,
      change.writes,
    );
    return result(change.accountChanged ? 'applied' : 'unchanged', { userId: user.id, transactionId: t.id });
  });
}
