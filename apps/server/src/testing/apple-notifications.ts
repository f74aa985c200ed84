import { randomInt, randomUUID } from 'node:crypto';
import { signJws, type TestChain } from './apple-chain.ts';

/**
 * App Store Server Notifications V2 as Apple sends them, signed by a test chain (apple-chain.ts), for
 * the server's tests and the browser journeys that deliver them to the real notify route
 * (journey-server.ts runs outside vitest, so this file must not import it).
 */

type Environment = 'Sandbox' | 'Production';

/** The chain's leaf, as signJws takes it. */
export const signerOf = (chain: TestChain) => ({ x5c: chain.x5c, key: chain.leafKey });

/** One App Store subscription of one account, as Apple would describe it. */
export class StoreSubscription {
  readonly originalId = `2000${randomInt(1e12)}`;
  private count = 0;

  constructor(
    readonly bundleId: string,
    /** The account's appAccountToken, as the app passes it to StoreKit (`/web/user/info`). */
    readonly token: string,
    readonly environment: Environment = 'Sandbox',
  ) {}

  /** A transaction of this subscription; times in unix seconds. */
  transaction(productId: string, purchased: number, expires: number, extra: object = {}) {
    this.count += 1;
    return {
      transactionId: this.count === 1 ? this.originalId : `${this.originalId}-${this.count}`,
      originalTransactionId: this.originalId,
      webOrderLineItemId: `${this.originalId}${this.count}`,
      bundleId: this.bundleId,
      productId,
      subscriptionGroupIdentifier: '21000001',
      purchaseDate: purchased * 1000,
      originalPurchaseDate: purchased * 1000,
      expiresDate: expires * 1000,
      quantity: 1,
      type: 'Auto-Renewable Subscription',
      appAccountToken: this.token,
      inAppOwnershipType: 'PURCHASED',
      signedDate: Date.now(),
      environment: this.environment,
      transactionReason: 'PURCHASE',
      storefront: 'CHN',
      currency: 'CNY',
      price: 25_000,
      ...extra,
    };
  }

  /** Its renewal info: auto-renew on, to the same product, unless `extra` says otherwise. */
  renewal(productId: string, extra: object = {}) {
    return {
      originalTransactionId: this.originalId,
      productId,
      autoRenewProductId: productId,
      autoRenewStatus: 1,
      signedDate: Date.now(),
      environment: this.environment,
      recentSubscriptionStartDate: Date.now(),
      appAccountToken: this.token,
      ...extra,
    };
  }
}

/** A notification's payload, its transaction and renewal info signed by `signer`; sign it to send it. */
export function storeNotification(
  signer: ReturnType<typeof signerOf>,
  about: { bundleId: string; environment?: Environment },
  type: string,
  subtype: string | undefined,
  parts: { transaction?: object; renewal?: object },
  data: object = {},
) {
  return {
    notificationType: type,
    ...(subtype ? { subtype } : {}),
    notificationUUID: randomUUID(),
    version: '2.0',
    signedDate: Date.now(),
    data: {
      bundleId: about.bundleId,
      bundleVersion: '1.0',
      environment: about.environment ?? 'Sandbox',
      status: 1,
      ...(parts.transaction ? { signedTransactionInfo: signJws(parts.transaction, signer) } : {}),
      ...(parts.renewal ? { signedRenewalInfo: signJws(parts.renewal, signer) } : {}),
      ...data,
    },
  };
}

export interface InitialBuy {
  bundleId: string;
  productId: string;
  appAccountToken: string;
  /** Unix seconds. */
  purchased: number;
  expires: number;
  environment?: Environment;
}

/**
 * The signedPayload of SUBSCRIBED (INITIAL_BUY): the first purchase of an auto-renewable
 * subscription, auto-renew on, with its transaction and renewal info signed by the chain's leaf.
 */
export function signedInitialBuy(chain: TestChain, purchase: InitialBuy): string {
  const signer = signerOf(chain);
  const subscription = new StoreSubscription(
    purchase.bundleId,
    purchase.appAccountToken,
    purchase.environment,
  );
  const notification = storeNotification(signer, purchase, 'SUBSCRIBED', 'INITIAL_BUY', {
    transaction: subscription.transaction(purchase.productId, purchase.purchased, purchase.expires),
    renewal: subscription.renewal(purchase.productId),
  });
  return signJws(notification, signer);
}
