import type { Language } from '@skyway/shared/languages';
import type { PayMethod } from '@skyway/shared/plans';
import type { PaymentProviderName } from '../../config.ts';
import type { OrderRow } from '../../db/schema/index.ts';

export interface CheckoutRequest {
  order: OrderRow;
  /** Where the buyer comes back to, paid or not (the payment inquiry dialog). */
  returnUrl: string;
  language: Language;
  email: string;
  /** The buyer's address, which some gateways' APIs require (Epay's mapi.php). */
  clientIp: string;
}

/** A provider's checkout for one order: its own id for it, and where the buyer pays. */
export interface Checkout {
  ref: string;
  url: string;
  /** The USDT the buyer is asked for, when the provider converts the amount (a USDT gateway). */
  usdtAmount?: string;
}

/** A payment a provider reports for a checkout. */
export interface ProviderPayment {
  paymentId: string;
  amount: number;
  currency: string;
}

/**
 * What orders need from a payment provider: the port each provider (modules/payments) implements.
 * Payments themselves arrive through fulfilPayment (fulfilment.ts).
 */
export interface PaymentProvider {
  /** The configured provider's, or a gateway's `<kind>:<gateway id>`. */
  readonly name: PaymentProviderName | `${string}:${string}`;
  /** The methods a buyer may choose (`/web/plan/list`), in PAY_METHODS order; the checkout offers the chosen one only. */
  readonly methods: PayMethod[];
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** The payment of the order's checkout when the provider says it is paid, else null (asked by order/query). */
  findPayment(order: OrderRow): Promise<ProviderPayment | null>;
  /**
   * Makes the checkout of an order that the user or a newer order closed unpayable, so that no one
   * pays twice. Done when the checkout is closed, or already paid (fulfilment credits that payment);
   * throws when the provider could not be asked (the orders job tries again).
   */
  closeCheckout(order: OrderRow): Promise<void>;
  /**
   * Gives a whole payment back. `key` is sent as the idempotency key, so asking again after a lost
   * answer refunds once. Throws RefundRefused when the provider says no (already refunded, too old…),
   * any other error when it could not be asked. Absent when the provider has no refund call (Epay,
   * USDT): its payments are refunded outside it and recorded as such.
   */
  refund?(
    payment: { providerPaymentId: string; amount: number; currency: string },
    key: string,
  ): Promise<ProviderRefund>;
}

/** An enabled gateway as the buy page offers it: the methods it serves, its names, its fee. */
export interface GatewayOffer {
  gatewayId: string;
  names: Record<Language, string>;
  /** Basis points of the order's amount; 0: none. */
  feeBps: number;
  methods: PayMethod[];
}

/** The providers of the payment gateways configured in the back office (Epay…). */
export interface GatewayProviders {
  /** A gateway's provider by the name its orders carry (`epay:<gateway id>`), on or off; null: none. */
  find(name: string): Promise<PaymentProvider | null>;
  /** The enabled gateway's provider an order/create names, with its fee, when it serves the method. */
  forCheckout(
    gatewayId: string,
    method: PayMethod,
  ): Promise<{ provider: PaymentProvider; feeBps: number } | null>;
  /** The enabled gateways that serve a method of the buy page's, in position order. */
  offers(): Promise<GatewayOffer[]>;
  /** The provider names of every gateway, whose unpaid orders the orders job asks about. */
  names(): Promise<string[]>;
}

/**
 * The provider name of an order that came to nothing (a 100 % coupon): no provider, no checkout; it
 * is paid at once through fulfilment.
 */
export const FREE_PROVIDER = 'free';

/** The provider an order (or its payment) was made with: the site's own, or its gateway's; null when that is gone. */
export async function providerOf(
  deps: { provider: PaymentProvider; gateways?: GatewayProviders },
  order: Pick<OrderRow, 'provider'>,
): Promise<PaymentProvider | null> {
  if (order.provider === deps.provider.name) return deps.provider;
  return (await deps.gateways?.find(order.provider)) ?? null;
}

/** A refund as the provider reports it: `pending` is accepted and on its way (some methods take days). */
export interface ProviderRefund {
  id: string;
  status: 'succeeded' | 'pending';
}

/** The provider's no to a refund, in its own words. */
export class RefundRefused extends Error {
  override name = 'RefundRefused';
}
