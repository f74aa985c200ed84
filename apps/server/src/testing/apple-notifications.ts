import { randomInt, randomUUID } from 'node:crypto';
import { signJws, type TestChain } from './apple-chain.ts';

/**
 * App Store Server Notifications V2 as Apple sends them, signed by a test chain (apple-chain.ts), for
 * tests and the browser journeys that deliver them to the real notify route (apps/web/e2e imports
 * this file by relative path, so it must not import vitest).
 */

export interface InitialBuy {
  bundleId: string;
  productId: string;
  /** The account's appAccountToken, as the app passes it to StoreKit (`/web/user/info`). */
  appAccountToken: string;
  /** Unix seconds. */
  purchased: number;
  expires: number;
  environment?: 'Sandbox' | 'Production';
}

/**
 * The signedPayload of SUBSCRIBED (INITIAL_BUY): the first purchase of an auto-renewable
 * subscription, auto-renew on, with its transaction and renewal info signed by the chain's leaf.
 */
export function signedInitialBuy(chain: TestChain, purchase: InitialBuy): string {
  const signer = { x5c: chain.x5c, key: chain.leafKey };
  const environment = purchase.environment ?? 'Sandbox';
  const originalTransactionId = `2000${randomInt(1e12)}`;
  const signedDate = Date.now();
  const transaction = {
    transactionId: originalTransactionId,
    originalTransactionId,
    webOrderLineItemId: `${originalTransactionId}1`,
    bundleId: purchase.bundleId,
    productId: purchase.productId,
    purchaseDate: purchase.purchased * 1000,
    originalPurchaseDate: purchase.purchased * 1000,
    expiresDate: purchase.expires * 1000,
    quantity: 1,
    type: 'Auto-Renewable Subscription',
    appAccountToken: purchase.appAccountToken,
    inAppOwnershipType: 'PURCHASED',
    signedDate,
    environment,
    transactionReason: 'PURCHASE',
  };
  const renewal = {
    originalTransactionId,
    productId: purchase.productId,
    autoRenewProductId: purchase.productId,
    autoRenewStatus: 1,
    signedDate,
    environment,
    recentSubscriptionStartDate: purchase.purchased * 1000,
    appAccountToken: purchase.appAccountToken,
  };
  const notification = {
    notificationType: 'SUBSCRIBED',
    subtype: 'INITIAL_BUY',
    notificationUUID: randomUUID(),
    version: '2.0',
    signedDate,
    data: {
      bundleId: purchase.bundleId,
      bundleVersion: '1.0',
      environment,
      status: 1,
      signedTransactionInfo: signJws(transaction, signer),
      signedRenewalInfo: signJws(renewal, signer),
    },
  };
  return signJws(notification, signer);
}
