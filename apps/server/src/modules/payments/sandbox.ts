import { randomBytes } from 'node:crypto';
import { LANGUAGE_PARAM } from '@skyway/shared/languages';
import { CARD_PROVIDER_METHODS } from '@skyway/shared/plans';
import type { PaymentProvider } from '../orders/provider.ts';

export const SANDBOX_PATH = '/pay/sandbox';

/**
 * The embedded default: a test checkout page served by this server (sandbox-routes.ts). Its token is
 * the checkout's id and the only key to it, like a real provider's session id; the page simulates the
 * method the buyer chose (sandbox-page.ts); paying goes through
 * fulfilPayment like any provider's notification. The config refuses it in production.
 */
export function createSandboxProvider(): PaymentProvider {
  return {
    name: 'sandbox',
    // Every method of the provider it stands in for, each simulated by the page.
    methods: [...CARD_PROVIDER_METHODS],
    async createCheckout({ language }) {
      const ref = randomBytes(24).toString('base64url');
      return { ref, url: `${SANDBOX_PATH}/${ref}?l=${LANGUAGE_PARAM[language]}` };
    },
    // The sandbox has nothing to ask: its Pay button fulfils the order at once.
    async findPayment() {
      return null;
    },
    // Nothing to close here: the page reads the order, and a closed order is not payable there.
    async closeCheckout() {},
    // No money moved, so none goes back: the refund is done at once, once per key.
    async refund(_payment, key) {
      return { id: `sandbox_re_${key}`, status: 'succeeded' };
    },
  };
}
